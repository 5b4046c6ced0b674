/// Strict percent-decoding of request paths and query values.
///
/// libmicrohttpd's own unescaping is switched off (see `HTTPServer+Callbacks.swift`) because it
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
