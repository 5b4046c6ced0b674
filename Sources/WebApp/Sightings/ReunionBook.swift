import Logging
import PetAPIClient
import Sightings
import Synchronization

/// The reunited pets as the snapshot splits them (`AnnouncementGateway.readReunitedPets`, docs/sightings.md
/// "Reunited"): a copy in memory of the sighting store's reunions, read again when this replica marks or undoes
/// one and whenever the change feed says another replica did (`PetSpotApp.dataChanged`, which then fetches
/// the list again). A snapshot never waits for the database: it takes the copy in hand.
final class ReunionBook: Sendable {
    private let store: any SightingStore
    private let logger: Logger
    private let pets = Mutex(ReunitedPets.none)

    init(store: any SightingStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The copy in hand.
    var current: ReunitedPets { pets.withLock { $0 } }

    /// Reads the reunions again, within the store's deadline; returns whether they changed. A failure keeps the
    /// copy (logged): the next change or reconnect of the feed reads them again.
    @discardableResult
    func reload() async -> Bool {
        let reunions: [Reunion]
        do {
            reunions = try await withThrowingTaskGroup(of: [Reunion].self) { group in
                group.addTask { try await self.store.reunions() }
                group.addTask {
                    try await Task.sleep(for: Limits.storeDeadline)
                    throw SightingStoreUnavailable(operation: "reunions", detail: "no answer within \(Limits.storeDeadline)")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? []
            }
        } catch {
            logger.error("reunions not read; the pages keep the ones in hand", metadata: ["error": "\(error)"])
            return false
        }
        let at = Dictionary(reunions.map { ($0.petID, $0.at) }, uniquingKeysWith: { first, _ in first })
        return pets.withLock { pets in
            guard pets.at != at else { return false }
            pets = ReunitedPets(at: at, version: pets.version + 1)
            return true
        }
    }
}
