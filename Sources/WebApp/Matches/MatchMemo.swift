import Caching
import PetAPIClient
import PetDomain
import Synchronization

/// The possible matches of each report, found at most once per report and snapshot generation
/// (docs/matching.md "Cost"): the details page, its all-matches page, the API and the feed in
/// either language all read the same list. Found outside the lock from the snapshot's grid cells
/// near the report (`Matching.matches`), never by scanning the snapshot; a newer generation
/// replaces the memo whole, so it holds only what the current snapshot's readers asked for.
final class MatchMemo: Sendable {
    private struct Kept: Sendable {
        var byID: [String: [PetMatch]]
        /// The snapshot's descriptions as matching reads them, each read once.
        var profiles: MatchProfiles?
        /// Matches kept in `byID`, all reports together.
        var keptMatches = 0
    }

    /// At most this many matches are kept per snapshot (about 120 bytes each with their reasons,
    /// so about 24 MB): a crawler reading every details page of 50,000 reports fills it, and
    /// the reports after that are searched each time their page is made (pages are still kept).
    static let maxKeptMatches = 200_000

    private let kept = SnapshotMemo<Kept>()
    /// How many times matches were searched for (tests check the memo with it).
    let searches = Atomic<Int>(0)

    /// The matches of `pet` in `snapshot`: from the memo when `pet` is the snapshot's own item,
    /// else (a report fetched apart or just made) found for this call only.
    func matches(for pet: Announcement, in snapshot: Snapshot) -> [PetMatch] {
        let generation = snapshot.generation
        let (found, profiles) = kept.withValue(for: generation, make: { Kept(byID: [:], profiles: nil) }) { state, isKept in
            guard isKept else { return ([PetMatch]?.none, MatchProfiles(snapshot.index)) }  // an older or replaced snapshot's request
            let profiles = state.profiles ?? MatchProfiles(snapshot.index)
            state.profiles = profiles
            return (state.byID[pet.id], profiles)
        }
        if let found { return found }
        let made = Matching.matches(for: pet, in: snapshot.index, profiles: profiles)
        searches.add(1, ordering: .relaxed)
        // Only the snapshot's own item is kept: a report fetched apart or just made may differ from it.
        guard snapshot.index.announcement(id: pet.id) == pet else { return made }
        kept.ifKept(generation: generation) { state in
            guard state.keptMatches + made.count <= MatchMemo.maxKeptMatches else { return }
            if state.byID.updateValue(made, forKey: pet.id) == nil { state.keptMatches += made.count }
        }
        return made
    }

    /// The profiles of `snapshot`'s unchanged items carried from its predecessor's (`MatchProfiles.init(_:carrying:)`),
    /// made while the snapshot is (`PageCaches.prepare`); its matches are searched again (a new report may be one).
    func prepare(_ snapshot: Snapshot) -> @Sendable () -> Void {
        guard let predecessor = snapshot.predecessor else { return {} }
        let old = kept.withKept { generation, state in generation == predecessor ? state.profiles : nil } ?? nil
        guard let old else { return {} }
        let profiles = MatchProfiles(snapshot.index, carrying: old, carried: snapshot.carried)
        let generation = snapshot.generation
        return { [kept] in kept.keep(Kept(byID: [:], profiles: profiles), for: generation) }
    }

    /// Lets go of what was kept for generations before `generation` (a new snapshot replaces theirs)
    /// and keeps nothing for them from now on. The profiles hold the whole snapshot they were read
    /// from (its items and index, ~45 MB at 50,000 items): without this, a replaced snapshot stayed
    /// alive until the next request that looked for matches (docs/performance.md "Memory").
    func retire(below generation: Int) {
        kept.retire(below: generation)
    }

    /// Whether profiles of a snapshot are kept (tests read it).
    var holdsProfiles: Bool { kept.withKept { _, state in state.profiles != nil } ?? false }

    /// Reports whose matches are kept now (tests read it).
    var keptCount: Int { kept.withKept { _, state in state.byID.count } ?? 0 }
}
