import Foundation

/// String clean-up shared by every decoded text field (docs/upstream.md §2: "trim strings").
enum TextNormalization {
    /// `text` without leading or trailing white space or line breaks; the inside is left untouched,
    /// so descriptions, diacritics and HTML-like text pass through exactly (escaping is the renderer's job).
    static func trimmed(_ text: String) -> String {
        // Fast path: most upstream values start and end with a visible ASCII character.
        if let first = text.utf8.first, let last = text.utf8.last,
            first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        {
            return text
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    /// `text` trimmed, or `nil` when nothing is left (an empty optional value means "absent").
    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let value = trimmed(text)
        return value.isEmpty ? nil : value
    }

    /// Unicode white space; ASCII is decided without the (slow) Unicode property tables.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// `text` cut to `limit` characters for log details, so one hostile value cannot flood a log line.
    static func excerpt(_ text: String, limit: Int = 60) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
