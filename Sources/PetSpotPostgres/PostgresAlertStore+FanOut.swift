import Alerts
import Foundation
import PostgresNIO

extension PostgresAlertStore {
    /// `earthdistance` measures on a sphere of 6,378,168 m, `Coordinate.distanceKm` on one of 6,371,009 m
    /// (PetDomain/Coordinate.swift): the database's distances are up to 0.12 % longer, so its boxes and its
    /// distance test are widened by this factor and the exact test is `AlertGeometry`'s, in Swift.
    static let sphereSlack = 1.002
    /// The bands of radii of the partial area indexes (`petspot_alert_area_<upper>km`, PostgresSchema+Alerts.swift):
    /// (0, 1], (1, 2], (2, 5] … (25, 50] km. Fixed by the migration that made them; the last ends at `AlertSearch.maxRangeKm`.
    static let areaBands = [1, 2, 5, 10, 15, 25, 50]

    /// The area condition: one arm per band, each as wide as its band's largest radius, each answered by its
    /// own partial index (a BitmapOr). The bounds are literals, not parameters: the planner proves a partial
    /// index usable from the query's text.
    static let areaCondition: String = {
        var lower = 0
        var arms: [String] = []
        for upper in areaBands {
            let metres = Int((Double(upper) * 1_000 * sphereSlack).rounded(.up))
            arms.append("(range_km > \(lower) AND range_km <= \(upper) AND earth_box(pet.point, \(metres)) @> centre)")
            lower = upper
        }
        return "(" + arms.joined(separator: " OR ") + ")"
    }()

    public func recordSeen(petIDs: [String], now: Date) async throws -> [String] {
        try await transaction("recordSeen") { connection -> [String] in
            // Whether this is the first list ever is decided under one lock for the service; the insert's
            // primary key alone decides which caller gets each id.
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresAlertStore.seenLock))", logger: logger)
            var everSaw = false
            for try await _ in try await connection.query("SELECT true FROM petspot_alert_meta", logger: logger) { everSaw = true }
            let inserted = try await connection.query(
                """
                INSERT INTO petspot_alert_seen (pet_id, claimed_at, done) SELECT unnest(\(petIDs)::text[]), \(now), \(!everSaw)
                  ON CONFLICT (pet_id) DO NOTHING RETURNING pet_id
                """,
                logger: logger
            )
            var fresh = Set<String>()
            for try await id in inserted.decode(String.self) { fresh.insert(id) }
            guard everSaw else {
                // The first list a fresh database sees owes nothing: it is the service's starting point.
                if !petIDs.isEmpty {
                    try await connection.query("INSERT INTO petspot_alert_meta (id, first_list_at) VALUES (1, \(now))", logger: logger)
                }
                return []
            }
            var ordered: [String] = []
            for id in petIDs where fresh.remove(id) != nil { ordered.append(id) }
            return ordered
        }
    }

    public func finishFanOut(petIDs: [String]) async throws {
        try await run("finishFanOut") {
            try await client.query("UPDATE petspot_alert_seen SET done = true WHERE pet_id = ANY(\(petIDs)) AND NOT done", logger: logger)
        }
    }

    public func unfinishedFanOuts(now: Date) async throws -> [String] {
        let stale = now.addingTimeInterval(-60)
        return try await run("unfinishedFanOuts") {
            // SKIP LOCKED: two replicas reclaiming at once split the ids instead of both taking them.
            let rows = try await client.query(
                """
                UPDATE petspot_alert_seen SET claimed_at = \(now) WHERE pet_id IN (
                  SELECT pet_id FROM petspot_alert_seen WHERE NOT done AND claimed_at < \(stale) FOR UPDATE SKIP LOCKED)
                  RETURNING pet_id
                """,
                logger: logger
            )
            var ids: [String] = []
            for try await id in rows.decode(String.self) { ids.append(id) }
            return ids.sorted()
        }
    }

    public func searchesContaining(latitude: Double, longitude: Double, status: String, species: String) async throws -> [Subscription] {
        try await run("searchesContaining") {
            // Each arm's `earth_box … @> centre` is what its partial GiST index answers; the distance
            // test then reads only the boxes' rows (EXPLAIN in scripts/bench/alerts-fanout.sh).
            let rows = try await client.query(
                """
                SELECT \(unescaped: SubscriptionColumns.select)
                  FROM petspot_alert_subscription, (SELECT ll_to_earth(\(latitude), \(longitude)) AS point) pet
                  WHERE kind = 'search' AND state = 'active' AND \(unescaped: PostgresAlertStore.areaCondition)
                    AND earth_distance(pet.point, centre) <= range_km * \(unescaped: "\(Int(1_000 * PostgresAlertStore.sphereSlack))")
                    AND (status IS NULL OR status = \(status)) AND (species IS NULL OR species = \(species))
                  ORDER BY created_at, id
                """,
                logger: logger
            )
            return try await SubscriptionColumns.decode(rows).filter { subscription in
                guard case .search(let search) = subscription.target else { return false }
                return AlertGeometry.distanceKm(search.latitude, search.longitude, latitude, longitude) <= Double(search.rangeKm)
            }
        }
    }

    public func matchFollows() async throws -> [Subscription] {
        try await run("matchFollows") {
            let rows = try await client.query(
                """
                SELECT \(unescaped: SubscriptionColumns.select) FROM petspot_alert_subscription
                  WHERE kind = 'matches' AND state = 'active' ORDER BY created_at, id
                """,
                logger: logger
            )
            return try await SubscriptionColumns.decode(rows)
        }
    }

    @discardableResult
    public func owe(_ pairs: [(subscriptionID: String, petID: String)], now: Date) async throws -> Int {
        guard !pairs.isEmpty else { return 0 }
        return try await transaction("owe") { connection -> Int in
            // A pair owed before is a conflict and returns nothing: once ever, whichever replica owes it.
            let inserted = try await connection.query(
                """
                INSERT INTO petspot_alert_owed (subscription_id, pet_id, owed_at)
                  SELECT p.subscription_id, p.pet_id, \(now)
                  FROM unnest(\(pairs.map(\.subscriptionID))::text[], \(pairs.map(\.petID))::text[]) WITH ORDINALITY
                       AS p(subscription_id, pet_id, n)
                  JOIN petspot_alert_subscription s ON s.id = p.subscription_id AND s.state = 'active'
                  ORDER BY p.n
                  ON CONFLICT (subscription_id, pet_id) DO NOTHING RETURNING subscription_id
                """,
                logger: logger
            )
            var added = 0
            var owedSubscriptions = Set<String>()
            for try await id in inserted.decode(String.self) {
                added += 1
                owedSubscriptions.insert(id)
            }
            guard added > 0 else { return 0 }
            try await queueNextMails(Array(owedSubscriptions), now: now, connection)
            try await notifyOutbox(connection)
            return added
        }
    }

    /// Queues each subscription's next alert or digest, or moves the one waiting forward, by
    /// `AlertSchedule.due` computed here from `last_mail_at` (the database's clock is never used).
    private func queueNextMails(_ subscriptionIDs: [String], now: Date, _ connection: PostgresConnection) async throws {
        // Locked in id order: two replicas owing the same subscriptions at once wait for each other, never deadlock.
        let rows = try await connection.query(
            """
            SELECT id, frequency, last_mail_at, kind FROM petspot_alert_subscription WHERE id = ANY(\(subscriptionIDs)) ORDER BY id FOR UPDATE
            """,
            logger: logger
        )
        var ids: [String] = []
        var mailIDs: [String] = []
        var kinds: [String] = []
        var dues: [Date] = []
        for try await (id, frequency, lastMail, kind) in rows.decode((String, String, Date?, String).self) {
            guard let frequency = AlertFrequency(rawValue: frequency) else { continue }
            ids.append(id)
            mailIDs.append(AlertTokens.newID())
            // A sightings subscription's mails are sightings (`AlertTarget.mailKind`); the others alerts or digests.
            kinds.append(kind == "sightings" ? MailKind.sighting.rawValue : frequency == .daily ? MailKind.digest.rawValue : MailKind.alert.rawValue)
            dues.append(AlertSchedule.due(frequency: frequency, lastMail: lastMail, now: now))
        }
        try await connection.query(
            """
            INSERT INTO petspot_alert_mail AS m (id, kind, subscription_id, due_at, created_at)
              SELECT q.id, q.kind, q.subscription_id, q.due_at, \(now)
              FROM unnest(\(mailIDs)::text[], \(kinds)::text[], \(ids)::text[], \(dues)::timestamptz[]) AS q(id, kind, subscription_id, due_at)
              ON CONFLICT (subscription_id, kind) WHERE sent_at IS NULL AND failed_at IS NULL AND pet_ids IS NULL
              DO UPDATE SET due_at = LEAST(m.due_at, EXCLUDED.due_at)
            """,
            logger: logger
        )
    }
}
