import Alerts
import Foundation
import Logging
import PetAPIClient
import PetDomain
import Sightings

/// Sightings and the owner's page (docs/sightings.md): the store (PostgreSQL shared by the replicas, or this
/// process's memory) and the pages, which relay each sighting to the owner through the alerts' outbox.
struct SightingAssembly: Sendable {
    let store: any SightingStore
    let handlers: SightingHandlers
    /// The reunited pets every snapshot puts apart (`AnnouncementGateway.readReunitedPets`).
    let reunions: ReunionBook

    init(
        site: SiteContext,
        gateway: AnnouncementGateway,
        reports: ReportAssembly,
        alerts: AlertAssembly,
        sightingStore: any SightingStore,
        places: PlaceFinder?,
        logger: Logger
    ) {
        let logger = logger.with(label: "sightings")
        let store = sightingStore
        self.store = store
        let reunions = ReunionBook(store: store, logger: logger)
        self.reunions = reunions
        gateway.readReunitedPets { reunions.current }
        handlers = SightingHandlers(
            site: site,
            store: store,
            reports: reports.handlers,
            gateway: gateway,
            checkCode: { petID, code, requestID in
                switch await gateway.checkManagementCode(id: petID, code: code, requestID: requestID) {
                case .owner: .owner
                case .wrongCode: .wrongCode
                case .unknownPet: .unknownPet
                case .unavailable: .unavailable
                }
            },
            relay: { sighting, pet, language, requestID in
                await alerts.relay(sighting, pet: pet, language: language.language.rawValue, requestID: requestID)
            },
            reunions: reunions,
            places: places,
            logger: logger
        )
    }
}
