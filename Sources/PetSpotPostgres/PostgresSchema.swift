import Logging
import PostgresNIO

/// The shared store's tables (docs/replicas.md "Schema"), created and migrated at startup. Each step runs
/// once, in order, inside one transaction behind a transaction-scoped advisory lock, so replicas that start
/// together take turns and the later ones find the work done. (A session lock would stay with a pooled
/// connection after it went back to the pool.)
enum PostgresSchema {
    /// The advisory lock of migrations; the reaper has its own (`PostgresWriteStore.reaperLock`).
    static let migrationLock: Int64 = 7_240_401

    /// Version N is `steps[N - 1]`. Append only: a step that ran is never edited.
    static let steps: [[PostgresQuery]] = [
        [
            // LOGGED: losing it in a crash could let a submission be made twice.
            """
            CREATE TABLE IF NOT EXISTS petspot_submission (
              ref_hash bytea PRIMARY KEY,
              fingerprint bytea NOT NULL,
              phase text NOT NULL DEFAULT 'checking' CHECK (phase IN ('checking', 'sending', 'created')),
              owner text NOT NULL,
              lease_until timestamptz NOT NULL,
              pet_id text,
              sealed bytea,
              photo_uploaded boolean NOT NULL DEFAULT false,
              kept_photo text,
              is_retry boolean NOT NULL DEFAULT false,
              expires_at timestamptz NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS petspot_submission_expires ON petspot_submission (expires_at)",
            "CREATE INDEX IF NOT EXISTS petspot_submission_retry ON petspot_submission (pet_id) WHERE is_retry",
            // UNLOGGED: a crash empties them; a kept photo is then chosen again, the limits restart.
            """
            CREATE UNLOGGED TABLE IF NOT EXISTS petspot_kept_photo (
              ref_hash bytea PRIMARY KEY,
              name text NOT NULL,
              width integer NOT NULL,
              height integer NOT NULL,
              jpeg bytea NOT NULL,
              expires_at timestamptz NOT NULL)
            """,
            // JPEG does not compress: no pglz on the way in.
            "ALTER TABLE petspot_kept_photo ALTER COLUMN jpeg SET STORAGE EXTERNAL",
            """
            CREATE UNLOGGED TABLE IF NOT EXISTS petspot_rate (
              bucket text NOT NULL,
              key text NOT NULL,
              hits timestamptz[] NOT NULL,
              expires_at timestamptz NOT NULL,
              PRIMARY KEY (bucket, key))
            """,
        ],
        // E-mail alerts (PostgresSchema+Alerts.swift).
        alertTables,
        // Sightings and reunions (PostgresSchema+Sightings.swift).
        sightingTables,
    ]

    /// Brings the database to the newest version; returns the version it found.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS petspot_schema (version integer NOT NULL)", logger: logger)
            var found = 0
            for try await version in try await connection.query("SELECT version FROM petspot_schema", logger: logger).decode(Int.self) {
                found = version
            }
            if found == 0 {
                try await connection.query("INSERT INTO petspot_schema (version) VALUES (0)", logger: logger)
            }
            for (index, step) in steps.enumerated() where index + 1 > found {
                for statement in step { try await connection.query(statement, logger: logger) }
                try await connection.query("UPDATE petspot_schema SET version = \(index + 1)", logger: logger)
                logger.info("write store schema migrated", metadata: ["version": "\(index + 1)"])
            }
            return found
        }
    }
}
