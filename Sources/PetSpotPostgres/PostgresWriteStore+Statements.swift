import Foundation
import PostgresNIO

// The write store's prepared statements: each one SQL text and its bindings, run by
// `PostgresWriteStore` (one statement where a transition takes one, docs/replicas.md "The cost of one report").

/// The claim (docs/replicas.md "Submissions"): a row back means this attempt owns the submission.
/// It takes over an expired entry, or one still `checking` whose lease passed (nothing was sent).
struct ClaimStatement: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO petspot_submission AS s (ref_hash, fingerprint, owner, lease_until, is_retry, expires_at)
        VALUES ($1, $2, $3, now() + interval '10 seconds', $4, now() + interval '1 hour')
        ON CONFLICT (ref_hash) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, phase = 'checking',
          owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until, pet_id = NULL, sealed = NULL,
          photo_uploaded = false, kept_photo = NULL, is_retry = EXCLUDED.is_retry, expires_at = EXCLUDED.expires_at
        WHERE s.expires_at < now() OR (s.phase = 'checking' AND s.lease_until < now())
        RETURNING true
        """
    typealias Row = Bool
    let hash: Data
    let fingerprint: Data
    let owner: String
    let retry: Bool

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        try bindings.append(hash)
        try bindings.append(fingerprint)
        bindings.append(owner)
        bindings.append(retry)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// One slot of a sliding-window limit in one upsert, by the database's clock: a row back (the slot's
/// time as text, exact to the microsecond, which `refund` removes again) means granted. The row lock
/// of `ON CONFLICT DO UPDATE … WHERE` serialises takes of one key across replicas.
struct TakeStatement: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO petspot_rate AS r (bucket, key, hits, expires_at)
        VALUES ($1, $2, ARRAY[clock_timestamp()], clock_timestamp() + $3 * interval '1 second')
        ON CONFLICT (bucket, key) DO UPDATE
          SET hits = ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > clock_timestamp() - $3 * interval '1 second' ORDER BY h)
                     || clock_timestamp(),
              expires_at = clock_timestamp() + $3 * interval '1 second'
          WHERE (SELECT count(*) FROM unnest(r.hits) h WHERE h > clock_timestamp() - $3 * interval '1 second') < $4
        RETURNING hits[cardinality(hits)]::text
        """
    typealias Row = String
    let bucket: String
    let key: String
    let window: Double
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(bucket)
        bindings.append(key)
        bindings.append(window)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}

/// `startSending` in one statement (docs/replicas.md "Submissions"): the attempt's row is locked while it is still
/// this owner's and `checking`; only then is a slot of the limit taken (as `TakeStatement` does, a limit of 0 taking
/// none), and only with the slot is the row marked `sending` with a fresh lease. The row back says which held:
/// owned, the slot's token (null when refused), sending.
struct StartSendingStatement: PostgresPreparedStatement {
    static let sql = """
        WITH mine AS (
          SELECT ref_hash FROM petspot_submission WHERE ref_hash = $1 AND owner = $2 AND phase = 'checking' FOR UPDATE
        ), taken AS (
          INSERT INTO petspot_rate AS r (bucket, key, hits, expires_at)
          SELECT $3, $4, ARRAY[clock_timestamp()], clock_timestamp() + $5 * interval '1 second' FROM mine WHERE $6 > 0
          ON CONFLICT (bucket, key) DO UPDATE
            SET hits = ARRAY(SELECT h FROM unnest(r.hits) h WHERE h > clock_timestamp() - $5 * interval '1 second' ORDER BY h)
                       || clock_timestamp(),
                expires_at = clock_timestamp() + $5 * interval '1 second'
            WHERE (SELECT count(*) FROM unnest(r.hits) h WHERE h > clock_timestamp() - $5 * interval '1 second') < $6
          RETURNING hits[cardinality(hits)]::text AS token
        ), slot AS (
          SELECT token FROM taken UNION ALL SELECT ''::text FROM mine WHERE $6 <= 0
        ), sent AS (
          UPDATE petspot_submission SET phase = 'sending', lease_until = now() + interval '10 seconds'
            WHERE ref_hash = $1 AND owner = $2 AND phase = 'checking' AND EXISTS (SELECT 1 FROM slot)
          RETURNING true
        )
        SELECT EXISTS (SELECT 1 FROM mine), (SELECT token FROM slot), EXISTS (SELECT 1 FROM sent)
        """
    typealias Row = (Bool, String?, Bool)
    let hash: Data
    let owner: String
    let bucket: String
    let key: String
    let window: Double
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        try bindings.append(hash)
        bindings.append(owner)
        bindings.append(bucket)
        bindings.append(key)
        bindings.append(window)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (Bool, String?, Bool) { try row.decode((Bool, String?, Bool).self) }
}
