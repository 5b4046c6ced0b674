import PetAPIClient
import PetDomain
import Synchronization

/// The possible matches of each report, found at most once per report and snapshot generation
/// (docs/matching.md "Cost"): the details page, its all-matches page, the API and the feed in
/// either language all read the same list. Found outside the lock from the snapshot's grid cells
/// near the report (`Matching.matches`), never by scanning the snapshot; a newer generation
/// replaces the memo whole, so it holds only what the current snapshot's readers asked for.
final class MatchMemo: Sendable {
    private struct Kept {
        var generation: Int
        var byID: [String: [PetMatch]]
    }

    private let kept = Mutex(Kept(generation: Int.min, byID: [:]))

    /// The matches of `pet` in `snapshot`: from the memo when `pet` is the snapshot's own item,
    /// else (a report fetched apart or just made) found for this call only.
    func matches(for pet: Announcement, in snapshot: Snapshot) -> [PetMatch] {
        let generation = snapshot.generation
        guard snapshot.index.announcement(id: pet.id) == pet else { return Matching.matches(for: pet, in: snapshot.index) }
        if let found = kept.withLock({ $0.generation == generation ? $0.byID[pet.id] : nil }) { return found }
        let found = Matching.matches(for: pet, in: snapshot.index)
        kept.withLock { state in
            if state.generation < generation { state = Kept(generation: generation, byID: [:]) }
            if state.generation == generation { state.byID[pet.id] = found }
        }
        return found
    }

    /// Reports whose matches are kept now (tests read it).
    var keptCount: Int { kept.withLock { $0.byID.count } }
}
