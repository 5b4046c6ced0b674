import Foundation
import PetAPIClient
import PetDomain
import Synchronization
import Testing

@testable import WebApp

/// `MatchMemo` (docs/matching.md "Cost"): a report's matches are searched for once per snapshot
/// generation, whoever asks; a new snapshot starts afresh.
@Suite struct MatchMemoTests {
    static func snapshot() -> Snapshot {
        let corpus = MatchCorpus(pairCount: 20, decoyCount: 100, seed: 3)
        return Snapshot(ListOutcome(items: corpus.items, skipped: [], warnings: []))
    }

    @Test func matches_are_searched_once_per_report_and_snapshot() throws {
        let memo = MatchMemo()
        let first = Self.snapshot()
        let pet = try #require(first.index.items.first { $0.status != .closed })
        let found = memo.matches(for: pet, in: first)
        for _ in 0..<5 { #expect(memo.matches(for: pet, in: first) == found) }
        #expect(memo.searches.load(ordering: .relaxed) == 1)
        #expect(memo.keptCount == 1)
        #expect(found == Matching.matches(for: pet, in: first.index))

        let second = Self.snapshot()  // the same items, a new generation
        #expect(second.generation > first.generation)
        #expect(memo.matches(for: pet, in: second) == found)
        #expect(memo.searches.load(ordering: .relaxed) == 2)
        #expect(memo.keptCount == 1)
    }

    @Test func a_replaced_snapshots_matches_and_profiles_are_let_go_and_not_kept_again() throws {
        let memo = MatchMemo()
        let first = Self.snapshot()
        let pet = try #require(first.index.items.first { $0.status != .closed })
        let found = memo.matches(for: pet, in: first)
        #expect(memo.keptCount == 1)
        #expect(memo.holdsProfiles)

        let second = Self.snapshot()
        memo.retire(below: second.generation)
        #expect(memo.keptCount == 0)
        #expect(!memo.holdsProfiles)
        // A request still on the old snapshot gets its matches, which are not kept.
        #expect(memo.matches(for: pet, in: first) == found)
        #expect(memo.keptCount == 0)
        #expect(!memo.holdsProfiles)
        #expect(memo.matches(for: pet, in: second) == found)
        #expect(memo.keptCount == 1)
    }

    @Test func a_report_not_in_the_snapshot_is_searched_each_time_and_not_kept() throws {
        let memo = MatchMemo()
        let snapshot = Self.snapshot()
        var pet = try #require(snapshot.index.items.first { $0.status == .missing })
        pet.id = "just-made"
        _ = memo.matches(for: pet, in: snapshot)
        _ = memo.matches(for: pet, in: snapshot)
        #expect(memo.searches.load(ordering: .relaxed) == 2)
        #expect(memo.keptCount == 0)
    }
}
