/// Strict percent-decoding of request paths and query values.
///
/// libmicrohttpd's own unescaping is switched off (see `HTTPServer+Callbacks+C.swift`) because it
/// decodes in place inside C strings, where an encoded NUL (`%00`) silently truncates the value.
/// Here a NUL, a malformed escape or invalid UTF-8 make the whole request a 400 instead.
enum PercentDecoding {
    /// Decodes `%HH` escapes; nil when an escape is malformed, decodes to NUL, or the bytes are not UTF-8.
    static func decode(_ raw: String) -> String? {
        guard raw.utf8.contains(UInt8(ascii: "%")) else {
            return raw.utf8.contains(0) ? nil : raw
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Encodes `text` as one query component: RFC 3986 unreserved bytes as they are, every
    /// other byte as `%HH` (the inverse of `decode` for any text `decode` gives).
    static func encodeComponent(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
