import Foundation
import Logging

/// One setting of `AppConfiguration.settings`, declared once: its flag, environment variable, the
/// `AppConfiguration` property it sets, the kind of value (type, range, parser) and its help. The
/// default is that property's initial value in `AppConfiguration`; the documented default, the
/// `--help` line and the row of docs/settings.md are made from it.
public struct Setting: Sendable {
    /// The flag without dashes, e.g. `cache-ttl`.
    public let flag: String
    /// The environment variable, e.g. `PETSPOT_CACHE_TTL`.
    public let environment: String
    /// The default as docs/settings.md shows it (Markdown): the default value, then what it means.
    public let documentedDefault: String
    /// The default as the README's key settings show it, shorter; nil for a setting only
    /// docs/settings.md lists.
    public let keyDefault: String?
    /// One line for `--help`.
    public let help: String
    /// What the value is, as `--help` names it: `--port <number>`.
    public let valueName: String
    /// The values allowed, as `--help` shows them (e.g. `0-65535`); nil when the kind says it all.
    public let range: String?
    /// Reads and checks `text`, the value of setting `name`, into the configuration.
    /// (Untyped `throws`: closures do not infer a typed one; `resolve` passes on its
    /// `ConfigurationError`s.)
    let apply: @Sendable (_ text: String, _ name: String, _ configuration: inout AppConfiguration) throws -> Void

    /// A setting of `kind` stored at `property`; `about` follows the default in docs/settings.md (the
    /// whole documented default when the default is none), `key` in the README's key settings (nil:
    /// not a key setting).
    init<Value>(
        _ flag: String,
        _ environment: String,
        _ property: any WritableKeyPath<AppConfiguration, Value> & Sendable,
        _ kind: SettingKind<Value>,
        help: String,
        about: String = "",
        key: String? = nil
    ) {
        self.flag = flag
        self.environment = environment
        self.help = help
        self.valueName = kind.valueName
        self.range = kind.range
        let shownDefault = kind.show(AppConfiguration()[keyPath: property]).map { "`\($0)`" } ?? ""
        self.documentedDefault = shownDefault + about
        self.keyDefault = key.map { shownDefault + $0 }
        self.apply = { text, name, configuration in configuration[keyPath: property] = try kind.parse(text, name) }
    }

    /// How errors and the log name it: `--cache-ttl / PETSPOT_CACHE_TTL`.
    public var name: String { "--\(flag) / \(environment)" }

    /// The `--help` text of the setting: help, environment variable, default and range.
    public var helpLine: String {
        let shownDefault = documentedDefault.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
        return "\(help) [env: \(environment)] (default: \(shownDefault)\(range.map { "; \($0)" } ?? ""))"
    }
}

/// The kind of a setting's value: how its text is read and checked (the range lives here), and how
/// its default is shown. The error messages name the setting and never echo a secret.
struct SettingKind<Value>: Sendable {
    /// What the value is, for `--help`.
    let valueName: String
    /// The values allowed, for `--help`.
    let range: String?
    /// The value of `text` for setting `name`, or a `ConfigurationError` naming it.
    let parse: @Sendable (_ text: String, _ name: String) throws -> Value
    /// The value as docs/settings.md shows a default; nil for none.
    let show: @Sendable (Value) -> String?
}

extension SettingKind where Value == Int {
    /// A whole number within `range`.
    static func integer(_ range: ClosedRange<Int>, _ valueName: String = "number") -> Self {
        SettingKind(valueName: valueName, range: "\(range.lowerBound)-\(range.upperBound)", show: { "\($0)" }) { text, name in
            try AppConfiguration.integer(text, in: range, setting: name)
        }
    }

    /// Megabytes (MiB) within `range`.
    static func megabytes(_ range: ClosedRange<Int>) -> Self { integer(range, "MiB") }
}

extension SettingKind where Value == Double {
    /// A number of seconds within `range`; fractions are fine.
    static func seconds(_ range: ClosedRange<Double>) -> Self {
        let shown: @Sendable (Double) -> String = { number in number == number.rounded() ? "\(Int(number))" : "\(number)" }
        return SettingKind(valueName: "seconds", range: "\(shown(range.lowerBound))-\(shown(range.upperBound))", show: shown) { text, name in
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite, range.contains(number) else {
                throw ConfigurationError(
                    setting: name,
                    problem: "'\(text)' is not a number of seconds from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return number
        }
    }
}

extension SettingKind where Value == String {
    /// Any text, trimmed of spaces or as given.
    static func text(_ valueName: String, trimmed: Bool = false) -> Self {
        SettingKind(valueName: valueName, range: nil, show: { $0.isEmpty ? nil : $0 }) { text, _ in
            trimmed ? text.trimmingCharacters(in: .whitespaces) : text
        }
    }

    /// A folder name, trimmed; an empty one is refused.
    static var folder: Self {
        SettingKind(valueName: "folder", range: nil, show: { $0 }) { text, name in try AppConfiguration.folder(text, setting: name) }
    }
}

extension SettingKind {
    /// A kind of its own: `parse` reads and checks the text, `show` shows a default.
    init(
        valueName: String,
        range: String? = nil,
        show: @escaping @Sendable (Value) -> String?,
        parse: @escaping @Sendable (_ text: String, _ name: String) throws -> Value
    ) {
        self.valueName = valueName
        self.range = range
        self.parse = parse
        self.show = show
    }

    /// The same kind for an optional property: nil (none) until the setting is given.
    var optional: SettingKind<Value?> {
        let parse = self.parse
        let show = self.show
        return SettingKind<Value?>(valueName: valueName, range: range, show: { $0.flatMap(show) }) { text, name in try parse(text, name) }
    }

    /// One of the cases of a `String` raw-value enumeration, in any letter case.
    static func oneOf(_ cases: [Value]) -> Self where Value: RawRepresentable<String> & Sendable {
        let names = cases.map(\.rawValue)
        return SettingKind(valueName: "name", range: names.joined(separator: "|"), show: { $0.rawValue }) { text, name in
            guard let value = Value(rawValue: text.lowercased()) else {
                throw ConfigurationError(setting: name, problem: "'\(text)' is not one of \(names.joined(separator: ", "))")
            }
            return value
        }
    }
}

extension SettingKind where Value == URL {
    /// An absolute http(s) URL without query or fragment; the value is not echoed in the error (a URL
    /// can carry credentials).
    static var httpURL: Self {
        SettingKind(valueName: "url", show: { $0.absoluteString }) { text, name in try AppConfiguration.httpURL(text, setting: name) }
    }
}
