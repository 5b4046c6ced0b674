import Caching
import Synchronization
import Testing

/// Made once per generation, replaced by a newer one, retired, and made alone for older requests.
struct SnapshotMemoTests {
    @Test func a_generation_is_made_once_and_then_used() {
        let memo = SnapshotMemo<Int>()
        let made = Counter()
        #expect(memo.value(for: 1) { made.next() } == (1, true))
        #expect(memo.value(for: 1) { made.next() } == (1, true))
        #expect(made.value == 1)
        #expect(memo.keptGeneration == 1)
    }

    @Test func a_newer_generation_replaces_the_kept_value() {
        let memo = SnapshotMemo<String>()
        _ = memo.value(for: 1) { "one" }
        #expect(memo.value(for: 2) { "two" } == ("two", true))
        #expect(memo.keptGeneration == 2)
        #expect(memo.keptValue(for: 2) { "again" } == "two")
    }

    @Test func an_older_generation_gets_its_own_value_not_kept() {
        let memo = SnapshotMemo<String>()
        _ = memo.value(for: 5) { "five" }

        #expect(memo.value(for: 4) { "four" } == ("four", false))
        #expect(memo.keptValue(for: 4) { "four" } == nil)

        #expect(memo.keptGeneration == 5)
        #expect(memo.value(for: 5) { "other" } == ("five", true))
    }

    @Test func retire_lets_the_value_go_and_keeps_none_for_older_generations() {
        let memo = SnapshotMemo<String>()
        _ = memo.value(for: 1) { "one" }

        memo.retire(below: 2)

        #expect(memo.keptGeneration == nil)
        #expect(memo.value(for: 1) { "late" } == ("late", false))
        #expect(memo.keptGeneration == nil)
        #expect(memo.value(for: 2) { "two" } == ("two", true))
        memo.retire(below: 2)  // not below: stays
        #expect(memo.keptGeneration == 2)
    }

    @Test func changes_to_the_kept_value_stay_and_those_to_a_value_made_alone_do_not() {
        let memo = SnapshotMemo<[Int]>()
        memo.withValue(for: 2, make: { [] }) { value, isKept in
            #expect(isKept)
            value.append(1)
        }
        memo.withValue(for: 1, make: { [] }) { value, isKept in
            #expect(!isKept)
            value.append(99)
        }
        #expect(
            memo.ifKept(generation: 2) { value -> [Int] in
                value.append(2)
                return value
            } == [1, 2]
        )
        #expect(memo.ifKept(generation: 1) { $0 } == nil)
        #expect(memo.withKept { generation, value in "\(generation): \(value)" } == "2: [1, 2]")
    }

    @Test func concurrent_callers_of_one_generation_share_one_making() async {
        let memo = SnapshotMemo<Int>()
        let made = Counter()
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask { memo.value(for: 7) { made.next() }.value }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(made.value == 1)
        #expect(Set(values) == [1])
    }
}
