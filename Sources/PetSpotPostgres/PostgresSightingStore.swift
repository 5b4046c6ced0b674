import Alerts
import Foundation
import Logging
import PostgresNIO
import Sightings

/// The sighting store of a service of several replicas: one PostgreSQL for all of them (docs/sightings.md
/// "The store"), keeping `MemorySightingStore`'s contract (`SightingStoreContractTests`). Each method is one
/// statement or one transaction; every time comes from the caller's `now`, never the database's clock.
///
/// It shares the write store's pool (`PostgresWriteStore.sharedClient`): until the write store migrated the
/// schema, and whenever the database fails, calls throw `SightingStoreUnavailable`, naming the operation
/// and the kind of failure only (a server's message may quote a row, hence a finder's note or contact).
public final class PostgresSightingStore: SightingStore {
    let client: PostgresClient
    let logger: Logger
    /// The replica's name in the change channel's payload (`ChangeFeed` skips its own).
    let replica: String
    private let ready: @Sendable () -> Bool

    public init(client: PostgresClient, replica: String, ready: @escaping @Sendable () -> Bool, logger: Logger) {
        self.client = client
        self.replica = replica
        self.ready = ready
        self.logger = logger
    }

    /// A store on `writeStore`'s pool, ready once `writeStore` migrated the schema.
    public convenience init(sharing writeStore: PostgresWriteStore, logger: Logger) {
        self.init(client: writeStore.sharedClient, replica: writeStore.replica, ready: { writeStore.isReady }, logger: logger)
    }

    @discardableResult
    private func run<Result: Sendable>(_ operation: String, _ body: () async throws -> Result) async throws -> Result {
        guard ready() else { throw SightingStoreUnavailable(operation: operation, detail: "the schema is not in place yet") }
        do {
            return try await body()
        } catch {
            let failure = PostgresAlertStore.unavailable(operation, error)
            throw SightingStoreUnavailable(operation: operation, detail: failure.detail)
        }
    }

    public func add(_ sighting: Sighting, photo: SightingPhoto?) async throws {
        try await run("add") {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO petspot_sighting (id, pet_id, seen_at, lat, lng, place_name, note, contact, photo_width, photo_height,
                      photo_bytes, created_at)
                    VALUES (\(sighting.id), \(sighting.petID), \(sighting.seenAt), \(sighting.latitude), \(sighting.longitude),
                      \(sighting.placeName), \(sighting.note), \(sighting.contact), \(sighting.photo?.width), \(sighting.photo?.height),
                      \(sighting.photo?.bytes), \(sighting.createdAt))
                    """,
                    logger: logger
                )
                if let photo {
                    try await connection.query(
                        "INSERT INTO petspot_sighting_photo (sighting_id, jpeg) VALUES (\(sighting.id), \(Data(photo.jpeg)))",
                        logger: logger
                    )
                }
            }
        }
    }

    /// The columns `decode` reads, in its order.
    private static let columns = "id, pet_id, seen_at, lat, lng, place_name, note, contact, photo_width, photo_height, photo_bytes, created_at"

    public func sightings(petID: String, limit: Int) async throws -> [Sighting] {
        try await run("sightings") {
            try await Self.decode(
                try await client.query(
                    """
                    SELECT \(unescaped: Self.columns) FROM petspot_sighting WHERE pet_id = \(petID)
                      ORDER BY seen_at DESC, created_at DESC, id DESC LIMIT \(max(limit, 0))
                    """,
                    logger: logger
                )
            )
        }
    }

    public func sightings(ids: [String]) async throws -> [Sighting] {
        try await run("sightings_by_id") {
            let found = try await Self.decode(
                try await client.query("SELECT \(unescaped: Self.columns) FROM petspot_sighting WHERE id = ANY(\(ids))", logger: logger)
            )
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return ids.compactMap { byID[$0] }
        }
    }

    private static func decode(_ rows: PostgresRowSequence) async throws -> [Sighting] {
        var found: [Sighting] = []
        for try await row in rows.decode((String, String, Date, Double, Double, String?, String, String?, Int?, Int?, Int?, Date).self) {
            var photo: SightingPhotoInfo?
            if let width = row.8, let height = row.9, let bytes = row.10 { photo = SightingPhotoInfo(width: width, height: height, bytes: bytes) }
            found.append(
                Sighting(
                    id: row.0,
                    petID: row.1,
                    seenAt: row.2,
                    latitude: row.3,
                    longitude: row.4,
                    placeName: row.5,
                    note: row.6,
                    contact: row.7,
                    photo: photo,
                    createdAt: row.11
                )
            )
        }
        return found
    }

    public func photo(sightingID: String, petID: String) async throws -> SightingPhoto? {
        try await run("photo") {
            let rows = try await client.query(
                """
                SELECT p.jpeg, s.photo_width, s.photo_height FROM petspot_sighting_photo p JOIN petspot_sighting s ON s.id = p.sighting_id
                  WHERE p.sighting_id = \(sightingID) AND s.pet_id = \(petID)
                """,
                logger: logger
            )
            for try await (jpeg, width, height) in rows.decode((Data, Int?, Int?).self) {
                return SightingPhoto(jpeg: Array(jpeg), width: width ?? 0, height: height ?? 0)
            }
            return nil
        }
    }

    public func openAccess(petID: String, now: Date) async throws -> String {
        let token = AlertTokens.make()
        let until = now.addingTimeInterval(SightingRules.accessFor)
        try await run("open_access") {
            try await client.query(
                "INSERT INTO petspot_owner_access (hash, pet_id, until) VALUES (\(Data(AlertTokens.digest(token))), \(petID), \(until))",
                logger: logger
            )
        }
        return token
    }

    public func hasAccess(token: String, petID: String, now: Date) async throws -> Bool {
        try await run("has_access") {
            let rows = try await client.query(
                """
                SELECT true FROM petspot_owner_access WHERE hash = \(Data(AlertTokens.digest(token))) AND pet_id = \(petID) AND until > \(now)
                """,
                logger: logger
            )
            for try await _ in rows { return true }
            return false
        }
    }

    public func closeAccess(token: String) async throws {
        try await run("close_access") {
            try await client.query("DELETE FROM petspot_owner_access WHERE hash = \(Data(AlertTokens.digest(token)))", logger: logger)
        }
    }

    public func markReunited(petID: String, now: Date) async throws -> Reunion {
        try await run("mark_reunited") {
            try await client.withTransaction(logger: logger) { connection -> Reunion in
                // A second mark keeps the first time (ON CONFLICT: the row's own `at` comes back).
                let rows = try await connection.query(
                    """
                    INSERT INTO petspot_reunion (pet_id, at) VALUES (\(petID), \(now))
                      ON CONFLICT (pet_id) DO UPDATE SET at = petspot_reunion.at RETURNING at
                    """,
                    logger: logger
                )
                var at = now
                for try await value in rows.decode(Date.self) { at = value }
                try await notify(connection, petID: petID)
                return Reunion(petID: petID, at: at)
            }
        }
    }

    public func undoReunited(petID: String, now: Date) async throws -> Bool {
        try await run("undo_reunited") {
            try await client.withTransaction(logger: logger) { connection -> Bool in
                let since = now.addingTimeInterval(-SightingRules.undoWithin)
                let rows = try await connection.query(
                    "DELETE FROM petspot_reunion WHERE pet_id = \(petID) AND at >= \(since) RETURNING pet_id",
                    logger: logger
                )
                var undone = false
                for try await _ in rows { undone = true }
                if undone { try await notify(connection, petID: petID) }
                return undone
            }
        }
    }

    /// Every replica refreshes its snapshot at the commit (`ChangeFeed`, the channel of `PostgresWriteStore.announce`).
    private func notify(_ connection: PostgresConnection, petID: String) async throws {
        try await connection.query("SELECT pg_notify(\(PostgresWriteStore.channel), \(replica + " " + petID))", logger: logger)
    }

    public func reunion(petID: String) async throws -> Reunion? {
        try await run("reunion") {
            let rows = try await client.query("SELECT at FROM petspot_reunion WHERE pet_id = \(petID)", logger: logger)
            for try await at in rows.decode(Date.self) { return Reunion(petID: petID, at: at) }
            return nil
        }
    }

    public func reunions() async throws -> [Reunion] {
        try await run("reunions") {
            let rows = try await client.query("SELECT pet_id, at FROM petspot_reunion ORDER BY pet_id", logger: logger)
            var found: [Reunion] = []
            for try await (petID, at) in rows.decode((String, Date).self) { found.append(Reunion(petID: petID, at: at)) }
            return found
        }
    }

    public func sweep(now: Date) async throws -> Int {
        try await run("sweep") {
            try await client.withTransaction(logger: logger) { connection -> Int in
                let made = now.addingTimeInterval(-SightingRules.keptFor)
                let reunited = now.addingTimeInterval(-SightingRules.keptAfterReunion)
                let rows = try await connection.query(
                    """
                    DELETE FROM petspot_sighting s WHERE s.created_at < \(made)
                      OR EXISTS (SELECT 1 FROM petspot_reunion r WHERE r.pet_id = s.pet_id AND r.at < \(reunited)) RETURNING s.id
                    """,
                    logger: logger
                )
                var gone = 0
                for try await _ in rows { gone += 1 }
                try await connection.query("DELETE FROM petspot_owner_access WHERE until <= \(now)", logger: logger)
                return gone
            }
        }
    }
}
