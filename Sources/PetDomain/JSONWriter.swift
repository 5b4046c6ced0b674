import Foundation

/// A tiny JSON text builder with a fixed key order, for our own API output (product-spec §4).
///
/// Written by hand instead of `JSONEncoder`: the output must keep explicit `null`s for every key
/// and the backend's key order, which a synthesized `Codable` conformance would not give.
struct JSONWriter {
    private(set) var text = ""

    /// Appends a string literal, escaped; `<`, `>`, `&`, U+2028 and U+2029 are escaped too, so the
    /// output stays safe if a client ever inlines it into HTML or a `<script>` (the text is unchanged
    /// for any JSON reader).
    mutating func string(_ value: String) {
        text.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text.append("\\\"")
            case "\\": text.append("\\\\")
            case "\n": text.append("\\n")
            case "\r": text.append("\\r")
            case "\t": text.append("\\t")
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                text.append(JSONWriter.unicodeEscape(scalar.value))
            default:
                if scalar.value < 0x20 {
                    text.append(JSONWriter.unicodeEscape(scalar.value))
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text.append("\"")
    }

    /// Appends a string literal, or `null` for nil.
    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Appends `null`.
    mutating func null() {
        text.append("null")
    }

    /// Appends an integer, or `null` for nil.
    mutating func integer(_ value: Int?) {
        if let value { text.append(String(value)) } else { null() }
    }

    /// Appends a number the way the backend prints one: `17` for whole values, shortest round-trip
    /// text otherwise; non-finite values (not JSON) become `null`.
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        if value == value.rounded(), abs(value) < 1e15 {
            text.append(String(Int(value)))
        } else {
            text.append(String(value))
        }
    }

    /// Appends raw JSON text that the caller has already made valid.
    mutating func raw(_ json: String) {
        text.append(json)
    }

    /// Appends `"key":` (with a leading comma unless `first`).
    mutating func key(_ name: String, first: Bool = false) {
        if !first { text.append(",") }
        string(name)
        text.append(":")
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
