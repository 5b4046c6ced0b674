import PetAPIClient
import PetDomain

// Apart from ListFilters.swift, which the fuzz harness compiles without the gateway (scripts/fuzz.sh).
extension ListFilters {
    /// The index these filters read: the reunited pets (`status=reunited`), or the listed ones.
    func index(of snapshot: Snapshot) -> AnnouncementIndex { reunited ? snapshot.reunited : snapshot.index }
}
