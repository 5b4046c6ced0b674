import Foundation

/// Builds JSON text by hand so key order and number formatting match the Node backend byte for byte
/// (JSONSerialization reorders keys and writes `17.0`; a stable body also keeps ETags stable).
enum JSONText {
    /// A JSON value as the backend's `JSON.stringify` would write it.
    enum Value: Sendable {
        case string(String?)
        case number(Double?)
        case integer(Int?)
        case raw(String)
    }

    /// Writes an object whose keys appear in the given order; nil values become explicit `null`
    /// because the backend always emits every key (product-spec §1).
    static func object(_ pairs: [(String, Value)]) -> String {
        var out = "{"
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out += "," }
            out += quoted(pair.0)
            out += ":"
            out += encode(pair.1)
        }
        return out + "}"
    }

    /// Writes an array of already-encoded JSON values.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    /// Encodes one value.
    static func encode(_ value: Value) -> String {
        switch value {
        case .string(let string): string.map(quoted) ?? "null"
        case .number(let number): number.map(formatNumber) ?? "null"
        case .integer(let integer): integer.map(String.init) ?? "null"
        case .raw(let raw): raw
        }
    }

    /// A JSON string literal with the escapes `JSON.stringify` uses: `"` `\` and control characters;
    /// everything else (Polish letters, `<`, `&`) is written as is, as the backend does.
    static func quoted(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(format: "%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Numbers as JavaScript prints them: whole values without a fraction (`17`, not `17.0`),
    /// others in the shortest form that round-trips (`52.2297`). Non-finite numbers are `null` in JSON.
    static func formatNumber(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }
}
