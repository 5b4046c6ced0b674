import Foundation
import Testing
import WebApp

/// `AppConfiguration.resolve(flags:environment:)` (docs/upstream.md §5): defaults, environment,
/// flag precedence, and bad values that stop startup naming the setting.
@Suite("Configuration")
struct ConfigurationTests {
    @Test func with_nothing_given_it_serves_127_0_0_1_8080_on_the_demo_upstream() throws {
        let configuration = try AppConfiguration.resolve(flags: [:], environment: [:])

        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.upstreamURL == nil)
    }

    @Test func port_host_and_upstream_are_read_from_the_environment() throws {
        let configuration = try AppConfiguration.resolve(
            flags: [:],
            environment: [
                "PORT": "9090", "HOST": "0.0.0.0", "PETSPOT_UPSTREAM_URL": "http://backend.internal:3000",
            ]
        )

        #expect(configuration.port == 9090)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.upstreamURL?.absoluteString == "http://backend.internal:3000")
    }

    @Test func a_flag_wins_over_the_environment() throws {
        let configuration = try AppConfiguration.resolve(
            flags: ["port": "7000", "upstream": "https://flag.example", "host": "::1"],
            environment: ["PORT": "9090", "PETSPOT_UPSTREAM_URL": "http://env.example", "HOST": "0.0.0.0"]
        )

        #expect(configuration.port == 7000)
        #expect(configuration.upstreamURL?.absoluteString == "https://flag.example")
        #expect(configuration.host == "::1")
    }

    @Test func an_absent_flag_falls_back_to_the_environment() throws {
        let configuration = try AppConfiguration.resolve(flags: ["port": nil], environment: ["PORT": "9191"])

        #expect(configuration.port == 9191)
    }

    struct BadValue: Sendable, CustomTestStringConvertible {
        let flags: [String: String?]
        let environment: [String: String]
        let settingMentions: String
        var testDescription: String { "\(flags) \(environment) → \(settingMentions)" }
    }

    @Test(arguments: [
        BadValue(flags: ["port": "70000"], environment: [:], settingMentions: "PORT"),
        BadValue(flags: [:], environment: ["PORT": "abc"], settingMentions: "PORT"),
        BadValue(flags: ["upstream": "ftp://x"], environment: [:], settingMentions: "PETSPOT_UPSTREAM_URL"),
        BadValue(flags: [:], environment: ["PETSPOT_UPSTREAM_URL": "not a url"], settingMentions: "PETSPOT_UPSTREAM_URL"),
        BadValue(flags: ["log-level": "loud"], environment: [:], settingMentions: "PETSPOT_LOG_LEVEL"),
        BadValue(flags: ["upstream-timeout": "-1"], environment: [:], settingMentions: "PETSPOT_UPSTREAM_TIMEOUT"),
        BadValue(flags: [:], environment: ["PETSPOT_CACHE_TTL": "soon"], settingMentions: "PETSPOT_CACHE_TTL"),
        BadValue(flags: ["host": "example.com"], environment: [:], settingMentions: "HOST"),
        BadValue(flags: ["log-format": "xml"], environment: [:], settingMentions: "PETSPOT_LOG_FORMAT"),
    ])
    func a_bad_value_throws_an_error_naming_the_setting(_ bad: BadValue) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try AppConfiguration.resolve(flags: bad.flags, environment: bad.environment)
        }

        let thrown = try #require(error)
        #expect(thrown.setting.contains(bad.settingMentions))
        #expect(thrown.description.contains(bad.settingMentions))
        #expect(!thrown.problem.isEmpty)
    }

    @Test func a_bad_upstream_url_with_credentials_is_not_echoed_in_the_error() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try AppConfiguration.resolve(flags: ["upstream": "ftp://admin:hunter2@backend.internal/x"], environment: [:])
        }

        let thrown = try #require(error)
        #expect(!thrown.description.contains("hunter2"))
        #expect(!thrown.description.contains("admin"))
        #expect(thrown.setting.contains("upstream"))
    }

    @Test func a_bad_public_base_url_with_credentials_is_not_echoed_either() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try AppConfiguration.resolve(flags: [:], environment: ["PETSPOT_PUBLIC_BASE_URL": "https://u:s3cr3t@x.example/?a=b"])
        }

        #expect(error?.description.contains("s3cr3t") == false)
    }
}
