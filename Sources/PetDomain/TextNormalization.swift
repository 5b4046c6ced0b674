import Foundation

/// String clean-up shared by every decoded text field (product-spec §2: "trim strings").
enum TextNormalization {
    /// `text` without leading or trailing white space or line breaks; the inside is left untouched,
    /// so descriptions, diacritics and HTML-like text pass through exactly (escaping is the renderer's job).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        // Fast path: most upstream values need no trimming, and this avoids a copy.
        guard let first = scalars.first, let last = scalars.last else { return text }
        if !isSpace(first), !isSpace(last) { return text }
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

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// `text` cut to `limit` characters for log details, so one hostile value cannot flood a log line.
    static func excerpt(_ text: String, limit: Int = 60) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
