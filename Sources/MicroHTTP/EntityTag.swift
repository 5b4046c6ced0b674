import Foundation

/// Entity tags and `If-None-Match` matching (RFC 9110 §8.8.3, §13.1.2), shared by every server in
/// the package: the site, the embedded demo backend and the test stub.
public enum EntityTag {
    /// 64-bit FNV-1a of the bytes: fast and stable; not a security function.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// A strong tag of the body, e.g. `"0123456789abcdef"`.
    public static func strong(for body: [UInt8]) -> String {
        let hex = String(hash(body), radix: 16)
        return "\"" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex + "\""
    }

    /// A weak tag of the body's length and hash, the way Express writes them: `W/"1f-…"`.
    public static func weak(for body: [UInt8]) -> String {
        "W/\"\(String(body.count, radix: 16))-\(String(hash(body), radix: 16))\""
    }

    /// True when an `If-None-Match` value lists `etag` (weak comparison) or is `*`.
    public static func matches(ifNoneMatch header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let wanted = opaque(etag)
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == wanted
        }
    }

    /// The tag without its weakness marker.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
