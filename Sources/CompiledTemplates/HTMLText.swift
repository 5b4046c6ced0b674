/// HTML escaping on UTF-8 bytes: `& < > " '` become `&amp; &lt; &gt; &quot; &#39;`, the set
/// swift-mustache's HTML content type escapes. Byte by byte, so a combining mark after `"` or `<`
/// cannot hide it (swift-mustache compares whole Characters and leaves `"\u{301}` raw). Used by
/// the template renderer and for text joined into pre-rendered card fragments.
public enum HTMLText {
    /// Bit `b` is set for each byte value `b` (< 0x40) that is escaped.
    private static let escapedBytes: UInt64 = (1 << 0x22) | (1 << 0x26) | (1 << 0x27) | (1 << 0x3C) | (1 << 0x3E)

    /// Appends `text` to `output`, escaped.
    public static func escape(_ text: String, into output: inout [UInt8]) {
        escape(text.utf8, into: &output)
    }

    /// Appends UTF-8 `bytes` to `output`, escaped.
    public static func escape<Bytes: Collection<UInt8>>(_ bytes: Bytes, into output: inout [UInt8]) {
        // Runs between escaped bytes are copied whole from contiguous UTF-8 (native Strings always
        // have it): measured 2–3x faster than appending byte by byte through the UTF8View.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            var runStart = 0
            for index in buffer.indices where buffer[index] < 0x40 && escapedBytes & (1 << UInt64(buffer[index])) != 0 {
                output.append(contentsOf: buffer[runStart..<index])
                appendEntity(for: buffer[index], to: &output)
                runStart = index + 1
            }
            output.append(contentsOf: buffer[runStart...])
        }
        guard done == nil else { return }
        for byte in bytes {
            if byte < 0x40 && escapedBytes & (1 << UInt64(byte)) != 0 {
                appendEntity(for: byte, to: &output)
            } else {
                output.append(byte)
            }
        }
    }

    private static func appendEntity(for byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
        default: output.append(contentsOf: "&#39;".utf8)
        }
    }
}
