import FastBytes
import Testing

/// What the arena keeps reads back unchanged, small pieces share chunks, large ones get their own,
/// and prefixed pieces carry their length and tag.
struct FragmentArenaTests {
    @Test func kept_bytes_read_back_after_many_other_keeps() {
        let arena = FragmentArena()
        var kept: [(ByteView, [UInt8])] = []
        for index in 0..<2_000 {
            let bytes = (0..<(index % 300)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            kept.append((bytes.withView { arena.keep($0) }, bytes))
        }
        for (view, bytes) in kept { #expect(view.array == bytes) }
        let (reserved, stored) = arena.bytes
        #expect(stored == kept.reduce(0) { $0 + $1.1.count })
        #expect(reserved >= stored)
        #expect(reserved < stored + 2 * FragmentArena.chunkBytes + stored / 4)  // chunks are mostly full
    }

    @Test func a_large_piece_gets_a_chunk_of_its_own_and_the_current_chunk_goes_on() {
        let arena = FragmentArena()
        let small = [UInt8](repeating: 1, count: 100)
        let large = [UInt8](repeating: 2, count: FragmentArena.chunkBytes)
        let first = small.withView { arena.keep($0) }
        let big = large.withView { arena.keep($0) }
        let second = small.withView { arena.keep($0) }
        #expect(big.array == large)
        #expect(second.address == first.address + 100)  // the same chunk as before the large piece
        #expect(arena.bytes.reserved == 2 * FragmentArena.chunkBytes)
    }

    @Test func a_prefixed_piece_is_one_address_with_its_length_and_tag() {
        let arena = FragmentArena()
        let bytes = Array("<entry>…</entry>".utf8)
        let address = bytes.withView { arena.keepPrefixed($0, tag: -42) }
        #expect(address != 0)
        let (read, tag) = FragmentArena.prefixed(at: address)
        #expect(read.array == bytes)
        #expect(tag == -42)
        let empty = FragmentArena.prefixed(at: ByteView.empty.withKeptEmpty(in: arena))
        #expect(empty.bytes.isEmpty && empty.tag == 7)
        #expect(FragmentArena.prefixed(at: 0).bytes.isEmpty)
    }

    @Test func threads_keeping_at_once_get_places_of_their_own() async {
        let arena = FragmentArena()
        let views = await withTaskGroup(of: [(Int, ByteView)].self) { group in
            for task in 0..<4 {
                group.addTask {
                    (0..<500).map { index in
                        let value = task * 1_000 + index
                        let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: value), count: 1 + value % 200)
                        return (value, bytes.withView { arena.keep($0) })
                    }
                }
            }
            var all: [(Int, ByteView)] = []
            for await views in group { all += views }
            return all
        }
        #expect(views.count == 2_000)
        for (value, view) in views {
            #expect(view.count == 1 + value % 200)
            #expect(view.allSatisfy { $0 == UInt8(truncatingIfNeeded: value) })
        }
    }
}

extension ByteView {
    /// An empty piece kept prefixed, tag 7 (the length prefix alone).
    fileprivate func withKeptEmpty(in arena: FragmentArena) -> Int { arena.keepPrefixed(self, tag: 7) }
}
