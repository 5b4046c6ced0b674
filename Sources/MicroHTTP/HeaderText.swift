/// Case-insensitive ASCII tests on header values, byte by byte: header names and the tokens in
/// `Cache-Control`, `Vary` and `Content-Type` are ASCII (RFC 9110 §5.6.2), and Foundation's
/// `lowercased().contains` on every answer cost more than a tenth of `BodyCompression.answer`
/// on a located page (docs/performance.md "Located pages").
enum HeaderText {
    /// True when `text` holds `token` (lowercase ASCII), in any case.
    static func contains(_ text: String, _ token: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)
        guard !needle.isEmpty else { return true }
        var text = text
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count) {
                var index = 0
                while index < needle.count, lowercased(haystack[start + index]) == needle[index] { index += 1 }
                if index == needle.count { return true }
            }
            return false
        }
    }

    /// The media type of a `Content-Type` value (before any `;`, without spaces), lowercased.
    static func mediaType(_ contentType: String) -> String {
        var bytes: [UInt8] = []
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            bytes.append(lowercased(byte))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
