import HTTPTypes
import MicroHTTP
import Testing

@Suite("Entity tags")
struct EntityTagTests {
    @Test func tags_depend_only_on_the_bytes() {
        let body = Array("hello".utf8)
        #expect(EntityTag.strong(for: body) == EntityTag.strong(for: Array("hello".utf8)))
        #expect(EntityTag.strong(for: body) != EntityTag.strong(for: Array("hellp".utf8)))
        #expect(EntityTag.strong(for: body).count == 18)
        #expect(EntityTag.weak(for: body).hasPrefix("W/\"5-"))
        // The strong tag is the hash in 16 lower-case hex digits, zeros first, between quotes.
        for length in [0, 1, 7, 8, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            let hex = String(EntityTag.hash(bytes), radix: 16)
            #expect(EntityTag.strong(for: bytes) == "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\"")
        }
    }

    /// A page's tag must change with any change of its bytes: one byte anywhere (in a 64-byte block,
    /// in the 8-byte tail, in the last bytes), two blocks swapped, a byte added; and the tags of many
    /// different bodies must not collide.
    @Test func every_changed_byte_and_every_swapped_block_gives_another_tag() {
        var generator = SystemRandomNumberGenerator()
        let page = (0..<(32 * 1024 + 13)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let tag = EntityTag.hash(page)
        var seen: Set<UInt64> = [tag]
        for position in Array(stride(from: 0, to: page.count, by: 97)) + Array((page.count - 16)..<page.count) {
            var changed = page
            changed[position] ^= UInt8.random(in: 1...255, using: &generator)
            #expect(seen.insert(EntityTag.hash(changed)).inserted, "byte \(position)")
        }
        var swapped = page
        swapped[0..<64] = page[64..<128]
        swapped[64..<128] = page[0..<64]
        #expect(page[0..<64] == swapped[0..<64] || seen.insert(EntityTag.hash(swapped)).inserted)
        #expect(seen.insert(EntityTag.hash(page + [0])).inserted)
        #expect(seen.insert(EntityTag.hash(Array(page.dropLast()))).inserted)
        // Bodies of every length up to 200 (each path of the tail), all zeros and all ones.
        for length in 0...200 {
            #expect(seen.insert(EntityTag.hash([UInt8](repeating: 0, count: length))).inserted, "zeros \(length)")
            if length > 0 { #expect(seen.insert(EntityTag.hash([UInt8](repeating: 0xFF, count: length))).inserted, "ones \(length)") }
        }
    }

    /// A tag folded from parts' hashes (a feed's head, entries and distances) must be the same for
    /// the same parts and change when any part changes, when two parts swap, and when a part is
    /// added or dropped.
    @Test func a_composite_tag_changes_with_any_part_and_with_their_order() {
        var generator = SystemRandomNumberGenerator()
        func tag(_ parts: [UInt64]) -> String {
            var composite = EntityTag.Composite(parts[0])
            for part in parts.dropFirst() { composite.add(part) }
            return composite.strong
        }
        let parts = (0..<101).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
        let original = tag(parts)
        #expect(original == tag(parts))
        #expect(original.count == 18 && original.hasPrefix("\"") && original.hasSuffix("\""))
        var seen: Set<String> = [original]
        for index in parts.indices {
            var changed = parts
            changed[index] ^= 1 << UInt64.random(in: 0..<64, using: &generator)
            #expect(seen.insert(tag(changed)).inserted, "part \(index)")
        }
        for index in parts.indices.dropLast() {
            var swapped = parts
            swapped.swapAt(index, index + 1)
            #expect(seen.insert(tag(swapped)).inserted, "swap \(index)")
        }
        #expect(seen.insert(tag(parts + [0])).inserted)
        #expect(seen.insert(tag(Array(parts.dropLast()))).inserted)
        // Small counts and zeros (an empty feed's head alone, entries at distance zero).
        for count in 1...40 { #expect(seen.insert(tag([UInt64](repeating: 0, count: count))).inserted, "zeros \(count)") }
    }

    @Test func if_none_match_compares_weakly_in_lists_and_accepts_a_star() {
        let strong = EntityTag.strong(for: Array("x".utf8))
        #expect(EntityTag.matches(ifNoneMatch: strong, etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "W/" + strong, etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "\"other\",  \(strong)", etag: strong))
        #expect(EntityTag.matches(ifNoneMatch: "*", etag: strong))
        #expect(!EntityTag.matches(ifNoneMatch: "\"other\"", etag: strong))
        #expect(!EntityTag.matches(ifNoneMatch: nil, etag: strong))
    }
}
