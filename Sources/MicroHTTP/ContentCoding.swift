import Foundation
import HTTPTypes

/// A content coding of an answer's body (RFC 9110 §8.4.1): what `Content-Encoding` names.
public enum ContentCoding: Int, Sendable, CaseIterable {
    /// No coding: the bytes as made.
    case identity = 0
    /// `gzip` (RFC 1952, zlib): every HTTP client reads it.
    case gzip = 1
    /// `br` (RFC 7932): smaller than gzip on text; browsers send it over HTTPS and loopback.
    case brotli = 2

    /// The `Content-Encoding` token; nil for identity (no header is sent).
    public var token: String? {
        switch self {
        case .identity: nil
        case .gzip: "gzip"
        case .brotli: "br"
        }
    }

    /// What goes inside an ETag's quotes, after the identity tag, for a body in this coding: a
    /// strong validator names one representation (RFC 9110 §8.8.3), and a compressed body is a
    /// representation of its own. An application that makes several forms of one body in the
    /// same coding adds its own mark after this suffix, so each sequence of bytes has its own tag.
    public var tagSuffix: String {
        switch self {
        case .identity: ""
        case .gzip: "-gz"
        case .brotli: "-br"
        }
    }

    /// True when a `Vary` value already names `Accept-Encoding` (any case): a compressible
    /// answer's every representation says it varies by that header.
    public static func varyNamesAcceptEncoding(_ vary: String) -> Bool {
        HeaderText.contains(vary, "accept-encoding")
    }

    /// This coding's bit in an `available` set of `choose`.
    public var bit: UInt8 { 1 << UInt8(rawValue) }

    /// The coding to send, among those in `available` (bits of `bit`; identity is always possible),
    /// for a request whose `Accept-Encoding` value is `header` (nil: absent).
    public static func choose(_ header: String?, available: UInt8) -> ContentCoding {
        guard let header else { return .identity }
        return choose(bytes: header.utf8.span, available: available)
    }

    /// `choose` on the header value's bytes, without allocating: the server runs it for every kept
    /// answer (RFC 9110 §12.5.3).
    ///
    /// - A coding's weight is the `q` of the entry naming it (`x-gzip` names gzip), else `*`'s
    ///   weight, else 0 (not acceptable).
    /// - identity is acceptable unless `identity;q=0`, or `*;q=0` without an `identity` entry,
    ///   excludes it; when the header does not name it (nor `*`), it weighs least of all, so a
    ///   listed coding wins.
    /// - The heaviest available coding with a weight above 0 wins; on a tie, `br`, then `gzip`,
    ///   then identity (the smallest body first).
    /// - When nothing available is acceptable (`identity;q=0` and no listed coding available),
    ///   identity is sent all the same: RFC 9110 §15.5.7 lets a server send its default
    ///   representation instead of a 406, and a page is better than an error.
    /// - No header means identity: RFC 9110 lets the server pick any coding then, but a client
    ///   that sends none (curl, scripts) may not decode one.
    public static func choose(bytes: Span<UInt8>, available: UInt8) -> ContentCoding {
        var weights = (identity: -1, gzip: -1, brotli: -1, any: -1)
        var start = 0
        let count = bytes.count
        while start < count {
            var end = start
            while end < count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            if let (tagStart, tagEnd, weight) = WeightedList.item(bytes, from: start, to: end) {
                switch token(bytes, tagStart, tagEnd) {
                case .identity?: weights.identity = max(weights.identity, weight)
                case .gzip?: weights.gzip = max(weights.gzip, weight)
                case .brotli?: weights.brotli = max(weights.brotli, weight)
                case nil:
                    if tagEnd - tagStart == 1, bytes[tagStart] == UInt8(ascii: "*") { weights.any = max(weights.any, weight) }
                }
            }
            start = end + 1
        }
        let brotli = weights.brotli >= 0 ? weights.brotli : max(0, weights.any)
        let gzip = weights.gzip >= 0 ? weights.gzip : max(0, weights.any)
        let identity = weights.identity >= 0 ? weights.identity : (weights.any >= 0 ? weights.any : 1)
        // The first of the heaviest wins: br, then gzip, then identity (unrolled: no array per request).
        var best = ContentCoding.identity
        var bestWeight = 0
        if available & ContentCoding.brotli.bit != 0, brotli > bestWeight {
            best = .brotli
            bestWeight = brotli
        }
        if available & ContentCoding.gzip.bit != 0, gzip > bestWeight {
            best = .gzip
            bestWeight = gzip
        }
        if identity > bestWeight { best = .identity }
        return best
    }

    /// The coding a token in `bytes[start..<end]` names (case-insensitive), nil for others.
    private static func token(_ bytes: Span<UInt8>, _ start: Int, _ end: Int) -> ContentCoding? {
        func equals(_ word: StaticString) -> Bool {
            guard end - start == word.utf8CodeUnitCount else { return false }
            return word.withUTF8Buffer { letters in
                for offset in 0..<(end - start) where bytes[start + offset] | 0x20 != letters[offset] { return false }
                return true
            }
        }
        if equals("br") { return .brotli }
        if equals("gzip") || equals("x-gzip") { return .gzip }
        if equals("identity") { return .identity }
        return nil
    }
}
