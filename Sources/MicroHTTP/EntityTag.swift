import Foundation

/// Entity tags and `If-None-Match` matching (RFC 9110 §8.8.3, §13.1.2), shared by every server in
/// the package: the site, the embedded demo backend and the test stub.
public enum EntityTag {
    /// A 64-bit FNV-1a-style hash of the bytes taken eight at a time in four independent lanes
    /// (32 bytes per step, so the multiplications overlap), then the tail byte by byte, with a
    /// final mix: stable, several times faster than byte-wise FNV-1a on a 20 KB page (it is
    /// computed for every page rendered); not a security function.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count), 0x8422_2325_cbf2_9ce4, 0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9
        )
        var hash: UInt64 = 0
        do {
            let raw = bytes.span.bytes
            let count = raw.byteCount
            let blocks = count / 32
            for block in 0..<blocks {
                let offset = block * 32
                lanes.0 = ((lanes.0 ^ raw.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime).rotatedLeft(by: 29)
                lanes.1 = ((lanes.1 ^ raw.unsafeLoadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime).rotatedLeft(by: 29)
                lanes.2 = ((lanes.2 ^ raw.unsafeLoadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime).rotatedLeft(by: 29)
                lanes.3 = ((lanes.3 ^ raw.unsafeLoadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime).rotatedLeft(by: 29)
            }
            hash = lanes.0
            hash = ((hash ^ lanes.1) &* prime).rotatedLeft(by: 29)
            hash = ((hash ^ lanes.2) &* prime).rotatedLeft(by: 29)
            hash = ((hash ^ lanes.3) &* prime).rotatedLeft(by: 29)
            for offset in (blocks * 32)..<count {
                hash ^= UInt64(bytes[offset])
                hash = hash &* prime
            }
        }
        // Final avalanche (SplitMix64's), so nearby inputs give unrelated tags.
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
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

extension UInt64 {
    /// The bits rotated left by `count` (0 < count < 64).
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
