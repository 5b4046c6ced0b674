import Caching
import Synchronization
import Testing

/// A monotonic clock that moves only when a test advances it: no decision here waits on real time.
final class StepClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    var reading: @Sendable () -> ContinuousClock.Instant { { self.now } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}

/// Expiry, the two bounds and the order entries go in, on a manual clock.
struct ExpiringMapTests {
    let clock = StepClock()

    func map(maxEntries: Int = 10, maxBytes: Int = .max) -> ExpiringMap<String, Int> {
        ExpiringMap(maxEntries: maxEntries, maxBytes: maxBytes, now: clock.reading)
    }

    @Test func a_value_is_there_until_it_expires_and_its_entry_after() {
        let map = map()
        map.put(1, for: "a", expires: clock.now + .seconds(60))
        clock.advance(by: .seconds(59))
        #expect(map.value(for: "a") == 1)

        clock.advance(by: .seconds(1))

        #expect(map.value(for: "a") == nil)
        #expect(map.entry(for: "a")?.value == 1)  // kept for a stale answer or a revalidation
        #expect(map.size.entries == 1)
    }

    @Test func the_entry_bound_drops_the_least_recently_used() {
        let map = map(maxEntries: 2)
        let later = clock.now + .seconds(60)
        map.put(1, for: "a", expires: later)
        map.put(2, for: "b", expires: later)
        #expect(map.value(for: "a") == 1)  // "a" is now used more recently than "b"

        map.put(3, for: "c", expires: later)

        #expect(map.keysByRecency == ["a", "c"])
        #expect(map.value(for: "b") == nil)
    }

    @Test func expired_entries_go_before_the_least_recently_used() {
        let map = map(maxEntries: 3)
        map.put(1, for: "old", expires: clock.now + .seconds(600))
        map.put(2, for: "short", expires: clock.now + .seconds(10))
        map.put(3, for: "other short", expires: clock.now + .seconds(10))
        clock.advance(by: .seconds(10))

        map.put(4, for: "new", expires: clock.now + .seconds(600))

        // Both expired ones went, though "old" is the least recently used.
        #expect(map.keysByRecency == ["old", "new"])
    }

    @Test func the_byte_bound_holds_and_the_entry_just_put_stays_even_alone_over_it() {
        let map = map(maxBytes: 100)
        let later = clock.now + .seconds(60)
        map.put(1, for: "a", bytes: 40, expires: later)
        map.put(2, for: "b", bytes: 40, expires: later)
        map.put(3, for: "c", bytes: 40, expires: later)
        #expect(map.keysByRecency == ["b", "c"])
        #expect(map.size.bytes == 80)

        map.put(4, for: "huge", bytes: 500, expires: later)

        #expect(map.keysByRecency == ["huge"])
        #expect(map.size.bytes == 500)
    }

    @Test func putting_a_key_again_replaces_its_bytes() {
        let map = map(maxBytes: 100)
        map.put(1, for: "a", bytes: 40, expires: clock.now + .seconds(60))
        map.put(2, for: "a", bytes: 70, expires: clock.now + .seconds(60))
        #expect(map.size.entries == 1)
        #expect(map.size.bytes == 70)
        #expect(map.remove("a") == 2)
        #expect(map.size.bytes == 0)
    }

    @Test func value_or_put_makes_once_until_the_value_expires() {
        let map = map()
        var made = 0
        let make = { () -> ExpiringMap<String, Int>.Entry in
            made += 1
            return .init(value: made, expires: clock.now + .seconds(60))
        }
        #expect(map.value(for: "a", orPut: make) == (1, true))
        #expect(map.value(for: "a", orPut: make) == (1, false))
        clock.advance(by: .seconds(60))
        #expect(map.value(for: "a", orPut: make) == (2, true))
        #expect(made == 2)
    }

    @Test func value_or_put_makes_once_for_concurrent_callers() async {
        let map = map()
        let made = Counter()
        let clock = clock
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    map.value(for: "shared") {
                        .init(value: made.next(), expires: clock.now + .seconds(60))
                    }.value
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(made.value == 1)
        #expect(Set(values) == [1])
    }

    @Test func modify_changes_removes_and_inserts_in_one_step() {
        let map = map(maxEntries: 2)
        let later = clock.now + .seconds(60)
        map.put(1, for: "a", expires: later)
        map.put(2, for: "b", expires: later)

        let seen = map.modify("a") { entry -> Int? in
            defer { entry?.value += 10 }
            return entry?.value
        }
        #expect(seen == 1)
        #expect(map.value(for: "a") == 11)
        #expect(map.keysByRecency == ["b", "a"])

        map.modify("b") { $0 = nil }
        #expect(map.entry(for: "b") == nil)

        map.modify("c") { $0 = .init(value: 3, expires: later) }
        map.modify("d") { $0 = .init(value: 4, expires: later) }
        #expect(map.keysByRecency == ["c", "d"])
    }

    @Test func remove_all_where_and_contains_see_expired_entries_too() {
        let map = map()
        map.put(1, for: "a", expires: clock.now + .seconds(10))
        map.put(2, for: "b", expires: clock.now + .seconds(60))
        clock.advance(by: .seconds(30))
        #expect(map.contains { $0.value == 1 })

        map.removeAll { key, _ in key == "a" }

        #expect(!map.contains { $0.value == 1 })
        #expect(map.keysByRecency == ["b"])
    }

    @Test func slots_of_removed_entries_are_reused_and_the_order_stays_right() {
        let map = map(maxEntries: 3)
        let later = clock.now + .seconds(60)
        for round in 0..<20 { map.put(round, for: "k\(round)", expires: later) }
        #expect(map.keysByRecency == ["k17", "k18", "k19"])
        #expect(map.size.entries == 3)
    }
}
