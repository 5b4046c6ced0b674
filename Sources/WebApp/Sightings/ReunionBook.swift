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
            // Within the store's deadline (`GuardedSightingStore`, which PetSpotApp puts around every sighting store).
            reunions = try await store.reunions()
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
