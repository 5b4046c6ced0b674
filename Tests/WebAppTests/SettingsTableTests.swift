import Foundation
import Testing
import WebApp

/// One settings table: the table of docs/settings.md is the declared table, and every setting is
/// read from its flag and from its environment variable, the flag winning.
@Suite("Settings table")
struct SettingsTableTests {
    @Test func the_documented_table_is_the_declared_table() throws {
        let document = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        #expect(
            document.contains(AppConfiguration.settingsTable + "\n"),
            "docs/settings.md's settings table differs from AppConfiguration.settingsTable:\n\(AppConfiguration.settingsTable)"
        )
    }

    @Test func the_readmes_key_settings_are_the_declared_key_settings() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains(AppConfiguration.keySettingsTable + "\n"),
            "README.md's key settings differ (scripts/settings-table.sh writes them):\n\(AppConfiguration.keySettingsTable)"
        )
        #expect(AppConfiguration.keySettingsTable.contains("`--port` | `PORT` | `8080`"))
    }

    @Test func every_setting_has_one_flag_one_variable_and_help() {
        let flags = AppConfiguration.settings.map(\.flag)
        let variables = AppConfiguration.settings.map(\.environment)
        #expect(Set(flags).count == flags.count)
        #expect(Set(variables).count == variables.count)
        #expect(AppConfiguration.settings.allSatisfy { !$0.help.isEmpty && !$0.documentedDefault.isEmpty })
    }

    @Test func a_flag_wins_over_its_variable_and_a_bad_value_names_the_setting() throws {
        let configuration = try AppConfiguration.resolve(
            flags: ["threads": "3"],
            environment: ["PETSPOT_THREADS": "9", "PETSPOT_PAGE_CACHE_MB": "7"]
        )
        #expect(configuration.threadCount == 3)
        #expect(configuration.pageCacheMegabytes == 7)
        #expect(throws: ConfigurationError.self) { try AppConfiguration.resolve(flags: ["max-details-calls": "0"], environment: [:]) }
        do {
            _ = try AppConfiguration.resolve(flags: [:], environment: ["PETSPOT_STALE_MAX": "-1"])
            Issue.record("a negative stale-max was accepted")
        } catch {
            #expect(error.setting == "--stale-max / PETSPOT_STALE_MAX")
        }
    }
}
