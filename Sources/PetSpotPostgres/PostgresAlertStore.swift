import Alerts
import Foundation
import Logging
import PetDomain
import PostgresNIO

/// The alert store of a service of several replicas: one PostgreSQL for all of them (docs/alerts-store.md),
/// keeping `MemoryAlertStore`'s contract with "once" meaning once for the service. Each method is one
/// statement or one transaction; every time comes from the caller's `now`, never the database's clock, so
/// the schedule is the one `AlertSchedule` computes and tests can move time.
///
/// It shares the write store's pool (`PostgresWriteStore.sharedClient`) and runs nothing of its own: until
/// the write store migrated the schema (`ready`), and whenever the database fails, calls throw
/// `AlertStoreUnavailable`.
public final class PostgresAlertStore: AlertStore {
    let client: PostgresClient
    let logger: Logger
    private let ready: @Sendable () -> Bool

    /// The channel a NOTIFY goes to after due mails were queued: other replicas' senders wake at once.
    public static let outboxChannel = "petspot_outbox"
    /// The advisory lock `recordSeen` takes: whether a list is the first one ever must be decided once.
    static let seenLock: Int64 = 7_240_403

    /// A store on `client`, used only while `ready()` says the schema is in place.
    public init(client: PostgresClient, ready: @escaping @Sendable () -> Bool, logger: Logger) {
        self.client = client
        self.ready = ready
        self.logger = logger
    }

    /// A store on `writeStore`'s pool, ready once `writeStore` migrated the schema.
    public convenience init(sharing writeStore: PostgresWriteStore, logger: Logger) {
        self.init(client: writeStore.sharedClient, ready: { writeStore.isReady }, logger: logger)
    }

    /// Runs `body` when the schema is in place; any failure becomes `AlertStoreUnavailable` naming
    /// `operation` and the kind of failure only (a server's message may quote a row, hence an address).
    @discardableResult
    func run<Result: Sendable>(_ operation: String, _ body: () async throws -> Result) async throws -> Result {
        guard ready() else { throw AlertStoreUnavailable(operation: operation, detail: "the schema is not in place yet") }
        do {
            return try await body()
        } catch {
            throw PostgresAlertStore.unavailable(operation, error)
        }
    }

    /// `error` as `AlertStoreUnavailable`: a transaction's failure is told by the error inside it (the
    /// statement's, else the commit's, else the begin's).
    static func unavailable(_ operation: String, _ error: any Error) -> AlertStoreUnavailable {
        switch error {
        case let error as AlertStoreUnavailable:
            return error
        case let error as PSQLError:
            let state = error.serverInfo?[.sqlState].map { " SQLSTATE \($0)" } ?? ""
            return AlertStoreUnavailable(operation: operation, detail: "\(error.code)\(state)")
        case let error as PostgresTransactionError:
            if let inner = error.closureError ?? error.commitError ?? error.beginError { return unavailable(operation, inner) }
            return AlertStoreUnavailable(operation: operation, detail: "PostgresTransactionError")
        default:
            return AlertStoreUnavailable(operation: operation, detail: String(describing: type(of: error)))
        }
    }

    /// Runs `body` in one transaction (see `run`).
    @discardableResult
    func transaction<Result: Sendable>(_ operation: String, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await run(operation) { try await client.withTransaction(logger: logger) { try await body($0) } }
    }

    /// Tells other replicas' senders that due mails were queued; sent at the transaction's commit.
    func notifyOutbox(_ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(PostgresAlertStore.outboxChannel), '')", logger: logger)
    }

    // MARK: - Subscriptions

    public func subscribe(_ request: SubscriptionRequest, now: Date) async throws -> Subscription? {
        let hash = AlertTokens.addressHash(request.email)
        let columns = SubscriptionColumns(request.target)
        return try await transaction("subscribe") { connection -> Subscription? in
            // One address at a time: two forms sent together must not make two subscriptions or beat the limit.
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresAlertStore.lockKey(hash)))", logger: logger)
            let never = try await connection.query("SELECT true FROM petspot_alert_never WHERE address_hash = \(Data(hash))", logger: logger)
            for try await _ in never { return nil }
            let known = try await connection.query(
                """
                SELECT id, state FROM petspot_alert_subscription WHERE address_hash = \(Data(hash)) AND kind = \(columns.kind)
                  AND lat IS NOT DISTINCT FROM \(columns.latitude)::float8 AND lng IS NOT DISTINCT FROM \(columns.longitude)::float8
                  AND range_km IS NOT DISTINCT FROM \(columns.rangeKm)::integer AND status IS NOT DISTINCT FROM \(columns.status)::text
                  AND species IS NOT DISTINCT FROM \(columns.species)::text AND pet_id IS NOT DISTINCT FROM \(columns.petID)::text
                  ORDER BY created_at LIMIT 1 FOR UPDATE
                """,
                logger: logger
            )
            var found: (id: String, state: String)?
            for try await (id, state) in known.decode((String, String).self) { found = (id, state) }
            if found?.state == SubscriptionState.active.rawValue { return nil }
            let rows: PostgresRowSequence
            if let found {
                // As the memory store: the known subscription takes the new form's frequency and language, pending again.
                rows = try await connection.query(
                    """
                    UPDATE petspot_alert_subscription SET frequency = \(request.frequency.rawValue), language = \(request.language),
                      state = 'pending' WHERE id = \(found.id) RETURNING \(unescaped: SubscriptionColumns.select)
                    """,
                    logger: logger
                )
            } else {
                rows = try await connection.query(
                    """
                    INSERT INTO petspot_alert_subscription (id, email, address_hash, kind, lat, lng, range_km, status, species,
                      pet_id, frequency, language, state, created_at, centre)
                    VALUES (\(AlertTokens.newID()), \(request.email), \(Data(hash)), \(columns.kind), \(columns.latitude),
                      \(columns.longitude), \(columns.rangeKm), \(columns.status), \(columns.species), \(columns.petID),
                      \(request.frequency.rawValue), \(request.language), 'pending', \(now),
                      ll_to_earth(\(columns.latitude)::float8, \(columns.longitude)::float8))
                    RETURNING \(unescaped: SubscriptionColumns.select)
                    """,
                    logger: logger
                )
            }
            guard let subscription = try await SubscriptionColumns.decode(rows).first else { return nil }
            let window = now.addingTimeInterval(-AlertSchedule.confirmWindow)
            try await connection.query(
                "DELETE FROM petspot_alert_confirmation WHERE address_hash = \(Data(hash)) AND sent_at <= \(window)",
                logger: logger
            )
            let counted = try await connection.query(
                "SELECT count(*)::integer FROM petspot_alert_confirmation WHERE address_hash = \(Data(hash))",
                logger: logger
            )
            var recent = 0
            for try await count in counted.decode(Int.self) { recent = count }
            guard recent < AlertSchedule.confirmationsPerAddress else { return nil }
            try await connection.query(
                "INSERT INTO petspot_alert_confirmation (address_hash, sent_at) VALUES (\(Data(hash)), \(now))",
                logger: logger
            )
            try await connection.query(
                """
                INSERT INTO petspot_alert_mail (id, kind, subscription_id, due_at, created_at, pet_ids)
                  VALUES (\(AlertTokens.newID()), 'confirm', \(subscription.id), \(now), \(now), '{}')
                """,
                logger: logger
            )
            try await notifyOutbox(connection)
            return subscription
        }
    }

    public func followSightings(email: String, petID: String, language: String, now: Date) async throws -> Subscription? {
        let hash = AlertTokens.addressHash(email)
        return try await transaction("follow_sightings") { connection -> Subscription? in
            // One address at a time, as `subscribe`: two sightings at once make one subscription.
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresAlertStore.lockKey(hash)))", logger: logger)
            let never = try await connection.query("SELECT true FROM petspot_alert_never WHERE address_hash = \(Data(hash))", logger: logger)
            for try await _ in never { return nil }
            let known = try await connection.query(
                """
                SELECT \(unescaped: SubscriptionColumns.select) FROM petspot_alert_subscription
                  WHERE address_hash = \(Data(hash)) AND kind = 'sightings' AND pet_id = \(petID) ORDER BY created_at LIMIT 1
                """,
                logger: logger
            )
            if let found = try await SubscriptionColumns.decode(known).first { return found.state == .active ? found : nil }
            let made = try await connection.query(
                """
                INSERT INTO petspot_alert_subscription (id, email, address_hash, kind, pet_id, frequency, language, state, created_at)
                VALUES (\(AlertTokens.newID()), \(email), \(Data(hash)), 'sightings', \(petID), 'instant', \(language), 'active', \(now))
                RETURNING \(unescaped: SubscriptionColumns.select)
                """,
                logger: logger
            )
            return try await SubscriptionColumns.decode(made).first
        }
    }

    public func mintToken(subscriptionID: String, purpose: TokenPurpose, now: Date) async throws -> String {
        let token = AlertTokens.make()
        try await run("mintToken") {
            // A token for a subscription that is gone links to nothing, as in the memory store: no row, no error.
            try await client.query(
                """
                INSERT INTO petspot_alert_token (hash, subscription_id, purpose, created_at)
                  SELECT \(Data(AlertTokens.digest(token))), id, \(purpose.rawValue), \(now) FROM petspot_alert_subscription
                  WHERE id = \(subscriptionID)
                """,
                logger: logger
            )
        }
        return token
    }

    public func subscription(token: String, purpose: TokenPurpose) async throws -> Subscription? {
        try await run("subscription") {
            let rows = try await client.query(
                """
                SELECT \(unescaped: SubscriptionColumns.select) FROM petspot_alert_subscription
                  WHERE id = (SELECT subscription_id FROM petspot_alert_token
                              WHERE hash = \(Data(AlertTokens.digest(token))) AND purpose = \(purpose.rawValue))
                """,
                logger: logger
            )
            return try await SubscriptionColumns.decode(rows).first
        }
    }

    public func confirm(token: String, now: Date) async throws -> Subscription? {
        try await run("confirm") {
            let rows = try await client.query(
                """
                UPDATE petspot_alert_subscription SET state = 'active'
                  WHERE id = (SELECT subscription_id FROM petspot_alert_token
                              WHERE hash = \(Data(AlertTokens.digest(token))) AND purpose = 'confirm')
                  RETURNING \(unescaped: SubscriptionColumns.select)
                """,
                logger: logger
            )
            return try await SubscriptionColumns.decode(rows).first
        }
    }

    public func update(subscriptionID: String, frequency: AlertFrequency?, rangeKm: Int?, language: String?) async throws {
        let range = rangeKm.map { min(max($0, 1), AlertSearch.maxRangeKm) }
        try await run("update") {
            try await client.query(
                """
                UPDATE petspot_alert_subscription SET frequency = COALESCE(\(frequency?.rawValue)::text, frequency),
                  language = COALESCE(\(language)::text, language),
                  range_km = CASE WHEN kind = 'search' THEN COALESCE(\(range)::integer, range_km) ELSE range_km END
                  WHERE id = \(subscriptionID)
                """,
                logger: logger
            )
        }
    }

    public func stop(subscriptionID: String) async throws {
        try await transaction("stop") { connection in
            try await connection.query("UPDATE petspot_alert_subscription SET state = 'stopped' WHERE id = \(subscriptionID)", logger: logger)
            try await dropOpenMails(of: [subscriptionID], connection)
        }
    }

    /// Drops the open alerts and digests of `ids` (not their confirmation mails), and marks the pets they
    /// were owed as dealt with, so a later confirmation does not send them (as `MemoryAlertStore` does).
    func dropOpenMails(of ids: [String], _ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            DELETE FROM petspot_alert_mail WHERE subscription_id = ANY(\(ids)) AND sent_at IS NULL AND failed_at IS NULL
              AND kind <> 'confirm'
            """,
            logger: logger
        )
        try await connection.query(
            "UPDATE petspot_alert_owed SET mail_id = 'dropped' WHERE subscription_id = ANY(\(ids)) AND mail_id IS NULL",
            logger: logger
        )
    }

    public func forget(addressHash: [UInt8]) async throws {
        try await transaction("forget") { connection in try await erase(addressHash, connection) }
    }

    public func neverAgain(addressHash: [UInt8]) async throws {
        try await transaction("neverAgain") { connection in
            try await erase(addressHash, connection)
            try await connection.query(
                "INSERT INTO petspot_alert_never (address_hash) VALUES (\(Data(addressHash))) ON CONFLICT DO NOTHING",
                logger: logger
            )
        }
    }

    /// Deletes every subscription of the address (its tokens, owed pets and mails go with it: ON DELETE CASCADE)
    /// and its confirmation count.
    private func erase(_ hash: [UInt8], _ connection: PostgresConnection) async throws {
        try await connection.query("DELETE FROM petspot_alert_subscription WHERE address_hash = \(Data(hash))", logger: logger)
        try await connection.query("DELETE FROM petspot_alert_confirmation WHERE address_hash = \(Data(hash))", logger: logger)
    }

    /// The per-address advisory lock's key: the address hash's first 8 bytes.
    static func lockKey(_ hash: [UInt8]) -> Int64 {
        hash.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
    }
}
