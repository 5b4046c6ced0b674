import Foundation

/// The one JSON text builder of the package, with a fixed key order: our own API output
/// (docs/upstream.md §4) and the embedded demo backend's bodies (which must match the Node backend's
/// `JSON.stringify` byte for byte).
///
/// Written by hand instead of `JSONEncoder`: the output must keep explicit `null`s for every key
/// and the backend's key order, which a synthesized `Codable` conformance would not give.
public struct JSONWriter: Sendable {
    public private(set) var text = ""
    /// True (our API): `<`, `>`, `&`, U+2028 and U+2029 are escaped too, so the output stays safe
    /// if a client ever inlines it into HTML or a `<script>` (the text is unchanged for any JSON
    /// reader). False (the demo backend): escapes exactly as `JSON.stringify` does.
    public let htmlSafe: Bool

    public init(htmlSafe: Bool = true) {
        self.htmlSafe = htmlSafe
    }

    /// Appends a string literal, escaped (see `htmlSafe`).
    public mutating func string(_ value: String) {
        text.append("\"")
        // Fast path: most values need no escaping and are appended whole.
        if !value.utf8.contains(where: htmlSafe ? JSONWriter.mayNeedEscape : JSONWriter.mustEscape) {
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
                // (A `where` after several patterns would apply to the last one only.)
                if htmlSafe { text.append(JSONWriter.unicodeEscape(scalar.value)) } else { text.unicodeScalars.append(scalar) }
            case "\u{08}" where !htmlSafe: text.append("\\b")
            case "\u{0C}" where !htmlSafe: text.append("\\f")
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
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Appends `null`.
    public mutating func null() {
        text.append("null")
    }

    /// Appends an integer, or `null` for nil.
    public mutating func integer(_ value: Int?) {
        if let value { text.append(String(value)) } else { null() }
    }

    /// Appends a number the way the backend prints one: `17` for whole values, shortest round-trip
    /// text otherwise; non-finite values (not JSON) become `null`.
    public mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        if value == value.rounded(), abs(value) < 1e15 {
            text.append(String(Int(value)))
        } else {
            text.append(String(value))
        }
    }

    /// Appends raw JSON text that the caller has already made valid.
    public mutating func raw(_ json: String) {
        text.append(json)
    }

    /// Appends `"key":` (with a leading comma unless `first`); keys are our own plain ASCII names,
    /// so they are written without the escaping scan.
    public mutating func key(_ name: StaticString, first: Bool = false) {
        text.append(first ? "\"" : ",\"")
        text.append(name.description)
        text.append("\":")
    }

    /// Appends `"key":` for a key made at run time (escaped like any string), with a leading comma unless `first`.
    public mutating func key(_ name: String, first: Bool) {
        if !first { text.append(",") }
        string(name)
        text.append(":")
    }

    /// Reserves room for about `bytes` of output, so a long list is not copied as it grows.
    public mutating func reserve(_ bytes: Int) {
        text.reserveCapacity(bytes)
    }

    /// Bytes that start something `string(_:)` escapes (0xE2 leads U+2028 and U+2029 in UTF-8).
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == 0xE2
    }

    /// Bytes `JSON.stringify` escapes: the quote, the backslash and control characters.
    private static func mustEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
