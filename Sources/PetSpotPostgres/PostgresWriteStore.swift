import Foundation
import Logging
import PostgresNIO
import ReportStore
import ServiceLifecycle
import Synchronization

/// The write store of a service of several replicas: one PostgreSQL through postgres-nio
/// (docs/replicas.md). Claims are one `INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING` (exactly one
/// of any number of concurrent claims wins); limits are a sliding log in one upsert, by the database's
/// clock; kept photos are rows bounded service-wide. Reads never come here.
///
/// Run it in the `ServiceGroup`: it runs the pool, migrates the schema (again and again until the
/// database answers: a replica starts and serves reads without it) and reaps expired rows every minute.
public final class PostgresWriteStore: WriteStore, Service {
    let client: PostgresClient
    let logger: Logger
    /// The kept photos' service-wide budget (`--report-photo-cache-mb`).
    let photoBytes: Int
    /// Who is notifying (`ChangeFeed` skips its own replica's notifications).
    let replica: String
    private let migrated = Mutex(false)

    /// The advisory lock the reaper takes for one sweep (one replica sweeps at a time).
    static let reaperLock: Int64 = 7_240_402
    /// The channel publishes are announced on.
    public static let channel = "petspot_changes"

    public init(url: DatabaseURL, photoBytes: Int, replica: String, logger: Logger) {
        client = PostgresClient(configuration: url.clientConfiguration(applicationName: "petspot-web \(replica)"), backgroundLogger: logger)
        self.logger = logger
        self.photoBytes = photoBytes
        self.replica = replica
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.maintain() }
            // Ends with the service group (graceful shutdown or cancellation): stops the pool too.
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Migrates until it worked, then reaps every minute.
    private func maintain() async {
        var pause = Duration.milliseconds(500)
        while !Task.isCancelled, !migrated.withLock({ $0 }) {
            do {
                try await PostgresSchema.migrate(client, logger: logger)
                migrated.withLock { $0 = true }
            } catch {
                logger.warning("write store not ready; retrying", metadata: ["error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(30))
            }
        }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(60))
            do { try await sweep() } catch { logger.notice("write store sweep failed", metadata: ["error": "\(String(reflecting: error))"]) }
        }
    }

    /// Deletes expired rows and the oldest kept photos past the budget, on one replica at a time (every
    /// minute; tests call it directly).
    public func sweep() async throws {
        try await client.withTransaction(logger: logger) { connection in
            let rows = try await connection.query("SELECT pg_try_advisory_xact_lock(\(PostgresWriteStore.reaperLock))", logger: logger)
            var locked = false
            for try await value in rows.decode(Bool.self) { locked = value }
            guard locked else { return }
            try await connection.query("DELETE FROM petspot_submission WHERE expires_at < now()", logger: logger)
            try await connection.query("DELETE FROM petspot_kept_photo WHERE expires_at < now()", logger: logger)
            try await connection.query("DELETE FROM petspot_rate WHERE expires_at < clock_timestamp()", logger: logger)
            try await trimPhotos(connection)
        }
    }

    private func trimPhotos(_ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            DELETE FROM petspot_kept_photo WHERE ref_hash IN (SELECT ref_hash FROM (SELECT ref_hash,
              sum(octet_length(jpeg)) OVER (ORDER BY expires_at DESC, ref_hash) AS total FROM petspot_kept_photo) t
              WHERE total > \(photoBytes))
            """,
            logger: logger
        )
    }

    /// Whether the schema is in place (writes fail closed until it is).
    public var isReady: Bool { migrated.withLock { $0 } }

    /// The pool, for `PostgresAlertStore` to share: one pool per replica keeps replicas × 5 within
    /// `max_connections` (docs/replicas.md "Pool and sizing").
    public var sharedClient: PostgresClient { client }

    private func ready() throws {
        guard migrated.withLock({ $0 }) else {
            throw WriteStoreUnavailable(operation: "migrate", detail: "the schema is not in place yet")
        }
    }

    // MARK: - Submissions

    public func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        try ready()
        let owner = SubmissionSeal.newOwner()
        let won = try await client.execute(ClaimStatement(hash: Data(key.hash), fingerprint: Data(fingerprint), owner: owner, retry: key.isRetry))
        for try await _ in won { return .owned(owner: owner) }
        let rows = try await client.query(
            """
            SELECT phase, fingerprint, pet_id, sealed, photo_uploaded, kept_photo, lease_until > now()
              FROM petspot_submission WHERE ref_hash = \(Data(key.hash)) AND expires_at > now()
            """,
            logger: logger
        )
        for try await (phase, print, pet, sealed, uploaded, kept, live) in rows.decode(
            (String, Data, String?, Data?, Bool, String?, Bool).self
        ) {
            let fingerprint = [UInt8](print)
            switch phase {
            case "created":
                let record = SubmissionRecord(petID: pet ?? "", sealed: sealed.map { [UInt8]($0) } ?? [], photoUploaded: uploaded, keptPhoto: kept)
                return .created(record, fingerprint: fingerprint)
            case "sending" where !live: return .unknownOutcome(fingerprint: fingerprint)
            default: return .inProgress(fingerprint: fingerprint)
            }
        }
        // Expired or freed between the two statements: claim again.
        return try await claim(key, fingerprint: fingerprint)
    }

    public func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        try ready()
        let rows = try await client.query(
            """
            UPDATE petspot_submission SET lease_until = now() + interval '10 seconds'
              WHERE ref_hash = \(Data(key.hash)) AND owner = \(owner) AND phase <> 'created' AND lease_until > now() RETURNING true
            """,
            logger: logger
        )
        for try await _ in rows { return true }
        return false
    }

    public func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        try ready()
        let statement = StartSendingStatement(
            hash: Data(key.hash),
            owner: owner,
            bucket: rule.bucket,
            key: limitKey,
            window: rule.windowSeconds,
            limit: rule.limit
        )
        for try await (owned, token, sending) in try await client.execute(statement) {
            guard owned else { return .lost }
            if sending, let token { return .sending(token: token) }
            if token != nil { return .lost }
        }
        return .refused(retryAfter: try await retryAfter(rule, key: limitKey))
    }

    public func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        try ready()
        try await client.query(
            """
            UPDATE petspot_submission SET phase = 'created', pet_id = \(record.petID), sealed = \(Data(record.sealed)),
              photo_uploaded = \(record.photoUploaded), kept_photo = \(record.keptPhoto), expires_at = now() + interval '1 hour'
              WHERE ref_hash = \(Data(key.hash)) AND owner = \(owner)
            """,
            logger: logger
        )
    }

    public func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        try ready()
        try await client.query(
            """
            UPDATE petspot_submission SET phase = 'sending', lease_until = now()
              WHERE ref_hash = \(Data(key.hash)) AND owner = \(owner) AND phase <> 'created'
            """,
            logger: logger
        )
    }

    public func release(_ key: SubmissionKey, owner: String) async throws {
        try ready()
        try await client.query(
            "DELETE FROM petspot_submission WHERE ref_hash = \(Data(key.hash)) AND owner = \(owner) AND phase <> 'created'",
            logger: logger
        )
    }

    public func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        try ready()
        let submission = key.map { Data($0.hash) }
        let photo = keptPhoto.map { Data(SubmissionSeal.fingerprint(Array($0.utf8))) }
        // One statement: the data-modifying parts run whatever the final SELECT reads, and the notification
        // is sent when it commits (docs/replicas.md "New data everywhere at once").
        try await client.query(
            """
            WITH done AS (
              UPDATE petspot_submission SET photo_uploaded = true, kept_photo = NULL
                WHERE ref_hash = \(submission) AND phase = 'created' RETURNING 1
            ), dropped AS (
              DELETE FROM petspot_kept_photo WHERE ref_hash = \(photo) RETURNING 1
            ), forgotten AS (
              DELETE FROM petspot_submission WHERE is_retry AND pet_id = \(petID) RETURNING 1
            )
            SELECT pg_notify(\(PostgresWriteStore.channel), \(replica + " " + petID))
            """,
            logger: logger
        )
    }

    public func forgetRetries(petID: String) async throws {
        try ready()
        try await client.query("DELETE FROM petspot_submission WHERE is_retry AND pet_id = \(petID)", logger: logger)
    }

    // MARK: - Kept photos

    public func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        try ready()
        try await client.query(
            """
            INSERT INTO petspot_kept_photo (ref_hash, name, width, height, jpeg, expires_at)
              VALUES (\(Data(SubmissionSeal.fingerprint(Array(reference.utf8)))), \(photo.name), \(photo.width), \(photo.height),
                      \(Data(photo.jpeg)), now() + interval '1 hour')
              ON CONFLICT (ref_hash) DO NOTHING
            """,
            logger: logger
        )
    }

    public func keptPhoto(_ reference: String) async throws -> StoredPhoto? {
        try ready()
        let rows = try await client.query(
            """
            SELECT name, width, height, jpeg FROM petspot_kept_photo
              WHERE ref_hash = \(Data(SubmissionSeal.fingerprint(Array(reference.utf8)))) AND expires_at > now()
            """,
            logger: logger
        )
        for try await (name, width, height, jpeg) in rows.decode((String, Int, Int, Data).self) {
            return StoredPhoto(jpeg: [UInt8](jpeg), width: width, height: height, name: name)
        }
        return nil
    }

    public func dropPhoto(_ reference: String) async throws {
        try ready()
        try await client.query(
            "DELETE FROM petspot_kept_photo WHERE ref_hash = \(Data(SubmissionSeal.fingerprint(Array(reference.utf8))))",
            logger: logger
        )
    }

    // MARK: - Limits

    public func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        guard rule.limit > 0 else { return .granted(token: "") }
        try ready()
        let window = rule.windowSeconds
        for try await token in try await client.execute(TakeStatement(bucket: rule.bucket, key: key, window: window, limit: rule.limit)) {
            return .granted(token: token)
        }
        return .refused(retryAfter: try await retryAfter(rule, key: key))
    }

    /// Whole seconds until the oldest slot of `rule` for `key` leaves its window (at least 1).
    private func retryAfter(_ rule: LimitRule, key: String) async throws -> Int {
        let window = rule.windowSeconds
        let rows = try await client.query(
            """
            SELECT ceil(extract(epoch FROM min(h) + \(window) * interval '1 second' - clock_timestamp()))::int
              FROM petspot_rate, unnest(hits) h
              WHERE bucket = \(rule.bucket) AND key = \(key) AND h > clock_timestamp() - \(window) * interval '1 second'
            """,
            logger: logger
        )
        for try await seconds in rows.decode(Int?.self) { return max(1, seconds ?? 1) }
        return 1
    }

    public func refund(_ rule: LimitRule, key: String, token: String) async throws {
        guard rule.limit > 0, !token.isEmpty else { return }
        try ready()
        try await client.query(
            "UPDATE petspot_rate SET hits = array_remove(hits, \(token)::timestamptz) WHERE bucket = \(rule.bucket) AND key = \(key)",
            logger: logger
        )
    }

    // MARK: - Change feed

    public func announce(petID: String) async throws {
        try await client.query("SELECT pg_notify(\(PostgresWriteStore.channel), \(replica + " " + petID))", logger: logger)
    }
}
