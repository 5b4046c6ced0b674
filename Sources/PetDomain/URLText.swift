import Foundation

/// Text pieces of URLs that both the upstream client and the pages build: one implementation, so
/// the cache key, the upstream query and our own links always agree.
public enum URLText {
    /// Percent-encodes a path segment or query component: RFC 3986 unreserved characters stay,
    /// every other UTF-8 byte becomes `%HH` (so `/`, `?`, `&`, `#`, space and `..` tricks cannot leak).
    public static func encodeComponent(_ text: String) -> String {
        // Most components (coordinates, filter values, ids) need no escape: the text itself, no copy.
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count * 3)
        appendEncoded(text, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends `text` percent-encoded as `encodeComponent` does, byte by byte into `output`: links
    /// built for every located page are written this way, without a string per component.
    public static func appendEncoded(_ text: String, to output: inout [UInt8]) {
        // Names and values of our own links (`lat`, `52.23`, `found`) need no escape: checked, then
        // appended in one copy (a byte at a time was 700 instructions a parameter, callgrind).
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy(isUnreserved) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986 unreserved: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A coordinate rounded to 4 decimals (about 11 m) without trailing zeros, e.g. `52.2297`, `17`.
    /// Used for the location in links and cache keys: digits beyond the 4 the location script sends
    /// do not make a new page (docs/scaling.md).
    public static func fourDecimals(_ value: Double) -> String {
        // Digits written by `Format.decimalText`, not `String(format:)`: this runs twice for every
        // located request (links, page key), and Foundation's formatting was a measurable part of it.
        let scaled = (abs(value) * 10_000).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return fourDecimalsOfLarge(value) }
        let units = Int(scaled)
        guard units > 0 else { return "0" }
        return Format.decimalText(units: units, decimals: 4, negative: value < 0, trimmed: true)
    }

    /// `fourDecimals` of a value too large for the integer digits above (never a coordinate).
    private static func fourDecimalsOfLarge(_ value: Double) -> String {
        var text = Format.fixed(value, decimals: 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
