import FastBytes
import Foundation

/// Entity tags and `If-None-Match` matching (RFC 9110 §8.8.3, §13.1.2), shared by every server in
/// the package: the site, the embedded demo backend and the test stub.
public enum EntityTag {
    /// A 64-bit hash of the bytes, 64 at a time in four independent lanes: each lane takes 16 bytes
    /// per step through one 64×64→128-bit multiplication of the two words (each xored with a
    /// constant), folds the product's halves and the second word into its state after a rotation
    /// (so the order of the blocks counts); then the tail eight bytes and a byte at a time, and a
    /// final mix. It is computed for every page rendered: this form takes about a third of the time
    /// of the FNV-style lanes it replaced on a 32 KB located page (docs/performance.md "Located
    /// pages"). Stable across runs; not a security function.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        let keys: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0xcbf2_9ce4_8422_2325, 0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB,
            0x8422_2325_cbf2_9ce4, 0x2545_F491_4F6C_DD1D, 0xD6E8_FEB8_6659_FD93, 0xA076_1D64_78BD_642F
        )
        @inline(__always) func step(_ lane: inout UInt64, _ first: UInt64, _ second: UInt64, _ keyA: UInt64, _ keyB: UInt64) {
            let product = (first ^ keyA).multipliedFullWidth(by: second ^ keyB)
            lane = lane.rotatedLeft(by: 23) &+ (product.high ^ product.low) &+ second
        }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (UInt64(bytes.count), keys.1, keys.2, keys.3)
        var hash: UInt64 = 0
        // A block's eight words with one bounds check (`ByteView.block64`): the span checked each of
        // the eight loads of a block (callgrind: 1.5 instructions a byte).
        bytes.withView { raw in
            let count = raw.count
            let blocks = count / 64
            for block in 0..<blocks {
                let words = raw.block64(at: block * 64)
                step(&lanes.0, words.0, words.1, keys.0, keys.4)
                step(&lanes.1, words.2, words.3, keys.1, keys.5)
                step(&lanes.2, words.4, words.5, keys.2, keys.6)
                step(&lanes.3, words.6, words.7, keys.3, keys.7)
            }
            hash = lanes.0
            step(&hash, lanes.1, lanes.2, keys.4, keys.5)
            step(&hash, lanes.3, hash, keys.6, keys.7)
            var offset = blocks * 64
            while offset + 8 <= count {
                step(&hash, raw.uint64(at: offset), UInt64(offset), keys.0, keys.1)
                offset += 8
            }
            while offset < count {
                step(&hash, UInt64(raw.byte(at: offset)), UInt64(offset), keys.2, keys.3)
                offset += 1
            }
        }
        return avalanche(hash)
    }

    /// A strong tag of the body, e.g. `"0123456789abcdef"`.
    public static func strong(for body: [UInt8]) -> String {
        strong(hash: hash(body))
    }

    /// The strong tag of a body assembled from parts whose hashes are known: each part's `hash(_:)`
    /// (or any 64-bit summary that changes when its bytes do) folded in the order the parts are
    /// written. An answer made of kept parts (a located feed's entries, docs/feeds.md "Cost")
    /// then tags itself without reading its bytes again; two different bodies still get different
    /// tags, and the same parts give the same tag on every replica.
    public struct Composite {
        private var state: UInt64

        /// A tag starting with the part whose hash is `first`.
        public init(_ first: UInt64) {
            state = first
        }

        /// Folds in the next part's hash.
        public mutating func add(_ value: UInt64) {
            let product = (state ^ 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: value ^ 0xD6E8_FEB8_6659_FD93)
            state = state.rotatedLeft(by: 23) &+ (product.high ^ product.low) &+ value
        }

        /// The strong tag of the parts folded so far.
        public var strong: String {
            EntityTag.strong(hash: EntityTag.avalanche(state))
        }
    }

    /// SplitMix64's final avalanche, so nearby inputs give unrelated tags.
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    /// `value` as a strong tag, e.g. `"0123456789abcdef"`.
    private static func strong(hash value: UInt64) -> String {
        // 18 bytes written in place (quote, 16 lower-case hex digits, quote): joining the parts
        // cost more than a tenth of the hash of a whole located page (callgrind).
        DigitWriter.string(capacity: 18) { writer in
            writer.put("\"")
            writer.put(hex: value, digits: 16)
            writer.put("\"")
        }
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
