import ArgumentParser
import WebApp

/// The settings as ArgumentParser options, one per `AppConfiguration.settings` entry, so that no
/// setting is declared twice: ArgumentParser finds a command's options by reflecting on an instance,
/// and this type's custom mirror lists an option made from each declaration (flag, help, value
/// name). Each is read as text: `AppConfiguration.resolve` checks it like its environment variable,
/// with the same messages naming the setting (docs/settings.md).
struct SettingOptions: ParsableArguments, CustomReflectable {
    /// The option definitions (only in the instance ArgumentParser reflects on).
    private var definitions: [(flag: String, option: Option<String?>)] = []
    /// The flags given, by name (in a parsed instance).
    private(set) var given: [String: String?] = [:]

    init() {
        definitions = AppConfiguration.settings.map { setting in
            // `.unconditional`: the next argument is the value even when it starts with a dash (`--stale-max -1`
            // is a bad value, not a missing one).
            let help = ArgumentHelp(setting.helpLine, valueName: setting.valueName)
            return (setting.flag, Option<String?>(name: .customLong(setting.flag), parsing: .unconditional, help: help))
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        for setting in AppConfiguration.settings {
            given[setting.flag] = try container.decode(Option<String?>.self, forKey: SettingKey(stringValue: setting.flag)).wrappedValue
        }
    }

    var customMirror: Mirror {
        let children: [Mirror.Child] = definitions.map { (label: $0.flag, value: $0.option) }
        return Mirror(self, children: children)
    }

    /// A setting's flag as the key ArgumentParser decodes its option by.
    private struct SettingKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
