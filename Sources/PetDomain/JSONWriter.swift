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
        // Fast path: most values need no escaping and are appended whole.
        if !value.utf8.contains(where: JSONWriter.mayNeedEscape) {
            text.append(value)
            text.append("\"")
            return
        }
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

    /// Appends `"key":` (with a leading comma unless `first`); keys are our own plain ASCII names,
    /// so they are written without the escaping scan.
    mutating func key(_ name: StaticString, first: Bool = false) {
        text.append(first ? "\"" : ",\"")
        text.append(name.description)
        text.append("\":")
    }

    /// Reserves room for about `bytes` of output, so a long list is not copied as it grows.
    mutating func reserve(_ bytes: Int) {
        text.reserveCapacity(bytes)
    }

    /// Bytes that start something `string(_:)` escapes (0xE2 leads U+2028 and U+2029 in UTF-8).
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == 0xE2
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
