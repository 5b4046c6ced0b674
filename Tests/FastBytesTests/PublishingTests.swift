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
