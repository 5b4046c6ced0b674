/// Case-insensitive ASCII tests on header values, byte by byte: header names and the tokens in
/// `Vary` are ASCII (RFC 9110 §5.6.2), and Foundation's `lowercased().contains` on every answer
/// cost more than a tenth of the compression step on a located page (docs/performance.md
/// "Located pages").
enum HeaderText {
    /// True when `text` holds `token` (lowercase ASCII), in any case.
    static func contains(_ text: String, _ token: StaticString) -> Bool {
        token.withUTF8Buffer { needle in
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
    }

    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
