import FastBytes
import Synchronization
import Testing

/// Published words and references: empty until published, then what was published, from any thread.
struct PublishingTests {
    @Test func slots_are_empty_until_published() {
        let slots = PublishedAddresses(count: 3)
        #expect((0..<3).map(slots.address(at:)) == [0, 0, 0])
        slots.publish(12_345, at: 1)
        #expect((0..<3).map(slots.address(at:)) == [0, 12_345, 0])
        #expect(PublishedAddresses(count: 0).count == 0)
    }

    @Test func a_reader_that_sees_an_address_sees_the_bytes_behind_it() async {
        let arena = FragmentArena()
        let slots = PublishedAddresses(count: 200)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for slot in 0..<200 {
                    let bytes = [UInt8](repeating: UInt8(slot), count: 64)
                    slots.publish(bytes.withView { arena.keepPrefixed($0, tag: Int64(slot)) }, at: slot)
                }
            }
            group.addTask {
                var seen = 0
                while seen < 200 {
                    seen = 0
                    for slot in 0..<200 {
                        let address = slots.address(at: slot)
                        guard address != 0 else { continue }
                        let (bytes, tag) = FragmentArena.prefixed(at: address)
                        #expect(tag == Int64(slot))
                        #expect(bytes.count == 64 && bytes.allSatisfy { $0 == UInt8(slot) })
                        seen += 1
                    }
                }
            }
        }
    }

    /// Counts the objects freed (one counter per test: tests may run at once).
    final class Frees: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    final class Probe: Sendable {
        let value: Int
        let frees: Frees
        init(_ value: Int, _ frees: Frees) {
            self.value = value
            self.frees = frees
        }
        deinit { frees.count.add(1, ordering: .relaxed) }
    }

    @Test func a_reference_keeps_the_first_object_stored_and_frees_the_others() {
        let frees = Frees()
        do {
            let reference = AtomicReference<Probe>()
            #expect(reference.value == nil)
            #expect(reference.storeIfNil(Probe(1, frees)).value == 1)
            #expect(reference.storeIfNil(Probe(2, frees)).value == 1)  // the second is not kept
            #expect(reference.value?.value == 1)
            #expect(frees.value == 1)
        }
        #expect(frees.value == 2)  // freed with the reference
    }

    @Test func racing_stores_agree_on_one_object() async {
        let frees = Frees()
        let reference = AtomicReference<Probe>()
        let kept = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 { group.addTask { reference.storeIfNil(Probe(task, frees)).value } }
            var all: Set<Int> = []
            for await value in group { all.insert(value) }
            return all
        }
        #expect(kept.count == 1)
        #expect(reference.value?.value == kept.first)
        #expect(frees.value == 7)
    }
}

/// `PublishedAddresses.carry`: what a new snapshot keeps of its predecessor's pieces (docs/performance.md
/// "Steady speed").
struct CarryTests {
    /// `count` slots, each holding a piece of `size` bytes of its slot's number, kept in `arena`.
    static func filled(_ count: Int, size: Int, in arena: FragmentArena) -> PublishedAddresses {
        let slots = PublishedAddresses(count: count)
        for slot in 0..<count {
            let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: slot), count: size)
            slots.publish(bytes.withView { arena.keepPrefixed($0, tag: Int64(slot)) }, at: slot)
        }
        return slots
    }

    static func piece(_ slots: PublishedAddresses, _ slot: Int) -> (bytes: [UInt8], tag: Int64)? {
        let address = slots.address(at: slot)
        guard address != 0 else { return nil }
        let (bytes, tag) = FragmentArena.prefixed(at: address)
        return (Array(bytes), tag)
    }

    @Test func unchanged_pieces_move_to_their_new_slots_in_the_shared_arena() {
        let arena = FragmentArena()
        let old = Self.filled(100, size: 40, in: arena)
        let new = PublishedAddresses(count: 101)
        // A report added in front: old slot k is new slot k+1; old slot 50 changed (-1).
        let carried = [Int32(-1)] + (0..<100).map { $0 == 50 ? Int32(-1) : Int32($0) }
        let result = PublishedAddresses.carry([(from: old, to: new)], carried: carried, arena: arena)
        #expect(result === arena)
        #expect(Self.piece(new, 0) == nil)
        #expect(Self.piece(new, 51) == nil)
        for slot in 1...100 where slot != 51 {
            #expect(new.address(at: slot) == old.address(at: slot - 1))
            #expect(Self.piece(new, slot)?.tag == Int64(slot - 1))
        }
    }

    @Test func an_arena_mostly_of_dropped_pieces_is_replaced_by_copies_of_the_kept_ones() {
        let arena = FragmentArena()
        // About 40 chunks of pieces, of which 10 slots are kept.
        let old = Self.filled(2_000, size: 1_300, in: arena)
        let second = Self.filled(2_000, size: 10, in: arena)
        let new = PublishedAddresses(count: 10)
        let newSecond = PublishedAddresses(count: 10)
        let carried = (0..<10).map { Int32($0 * 7) }
        let result = PublishedAddresses.carry([(from: old, to: new), (from: second, to: newSecond)], carried: carried, arena: arena)
        #expect(result !== arena)
        #expect(result.bytes.kept < arena.bytes.kept / 10)
        for slot in 0..<10 {
            let source = slot * 7
            #expect(new.address(at: slot) != old.address(at: source))
            let piece = Self.piece(new, slot)
            #expect(piece?.tag == Int64(source))
            #expect(piece?.bytes == [UInt8](repeating: UInt8(truncatingIfNeeded: source), count: 1_300))
            #expect(Self.piece(newSecond, slot)?.bytes == [UInt8](repeating: UInt8(truncatingIfNeeded: source), count: 10))
        }
    }

    @Test func slots_out_of_range_or_empty_are_left_empty() {
        let arena = FragmentArena()
        let old = Self.filled(3, size: 8, in: arena)
        let empty = PublishedAddresses(count: 3)
        let new = PublishedAddresses(count: 4)
        let newFromEmpty = PublishedAddresses(count: 4)
        let carried: [Int32] = [2, 9, -1, 0]
        _ = PublishedAddresses.carry([(from: old, to: new), (from: empty, to: newFromEmpty)], carried: carried, arena: arena)
        #expect(Self.piece(new, 0)?.tag == 2)
        #expect(Self.piece(new, 1) == nil && Self.piece(new, 2) == nil)
        #expect(Self.piece(new, 3)?.tag == 0)
        #expect((0..<4).allSatisfy { newFromEmpty.address(at: $0) == 0 })
    }
}
