import Alerts
import Foundation
import PostgresNIO

extension PostgresAlertStore {
    public func claimDue(now: Date, limit: Int) async throws -> [OwedMail] {
        guard limit > 0 else { return [] }
        let leaseUntil = now.addingTimeInterval(AlertSchedule.lease)
        return try await transaction("claimDue") { connection -> [OwedMail] in
            // SKIP LOCKED: a sender never waits for, nor takes, a mail another sender is claiming right now;
            // the lease then keeps it that sender's until it passes (a sender killed mid-send).
            let claimed = try await connection.query(
                """
                UPDATE petspot_alert_mail m SET lease_until = \(leaseUntil)
                  FROM (SELECT id FROM petspot_alert_mail
                        WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= \(now)
                          AND (lease_until IS NULL OR lease_until <= \(now))
                        ORDER BY due_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED) due
                  WHERE m.id = due.id
                  RETURNING m.id
                """,
                logger: logger
            )
            var ids: [String] = []
            for try await id in claimed.decode(String.self) { ids.append(id) }
            guard !ids.isEmpty else { return [] }
            // The pets are fixed at the first claim: a resend after a crash tells the same pets.
            try await connection.query(
                """
                WITH taken AS (
                  UPDATE petspot_alert_owed o SET mail_id = m.id FROM petspot_alert_mail m
                    WHERE m.id = ANY(\(ids)) AND m.pet_ids IS NULL AND o.subscription_id = m.subscription_id AND o.mail_id IS NULL
                    RETURNING o.mail_id, o.pet_id, o.n)
                UPDATE petspot_alert_mail m
                  SET pet_ids = COALESCE((SELECT array_agg(t.pet_id ORDER BY t.n) FROM taken t WHERE t.mail_id = m.id), '{}')
                  WHERE m.id = ANY(\(ids)) AND m.pet_ids IS NULL
                """,
                logger: logger
            )
            let rows = try await connection.query(
                """
                SELECT m.id, m.kind, m.pet_ids, m.attempts, m.created_at, \(unescaped: SubscriptionColumns.selectFromS)
                  FROM petspot_alert_mail m JOIN petspot_alert_subscription s ON s.id = m.subscription_id
                  WHERE m.id = ANY(\(ids)) ORDER BY m.due_at, m.id
                """,
                logger: logger
            )
            var mails: [OwedMail] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                let id = try columns[0].decode(String.self)
                let kind = try columns[1].decode(String.self)
                let petIDs = try columns[2].decode([String]?.self)
                let attempts = try columns[3].decode(Int.self)
                let createdAt = try columns[4].decode(Date.self)
                guard let kind = MailKind(rawValue: kind), let subscription = try SubscriptionColumns.subscription(row, from: 5) else { continue }
                mails.append(
                    OwedMail(id: id, kind: kind, subscription: subscription, petIDs: petIDs ?? [], attempts: attempts, createdAt: createdAt)
                )
            }
            return mails
        }
    }

    public func markSent(mailID: String, now: Date) async throws {
        try await run("markSent") {
            // An alert's or digest's sending starts the instant gap (`AlertSchedule.due` reads `last_mail_at`).
            try await client.query(
                """
                WITH sent AS (
                  UPDATE petspot_alert_mail SET sent_at = \(now), lease_until = NULL WHERE id = \(mailID)
                    RETURNING subscription_id, kind)
                UPDATE petspot_alert_subscription s SET last_mail_at = \(now) FROM sent
                  WHERE s.id = sent.subscription_id AND sent.kind <> 'confirm'
                """,
                logger: logger
            )
        }
    }

    public func markRetry(mailID: String, retryAt: Date, reason: String, now: Date) async throws {
        try await run("markRetry") {
            try await client.query(
                """
                UPDATE petspot_alert_mail SET attempts = attempts + 1, lease_until = NULL, reason = \(reason),
                  failed_at = CASE WHEN \(retryAt) > created_at + \(AlertSchedule.retryFor) * interval '1 second' THEN \(now)
                                   ELSE failed_at END,
                  due_at = CASE WHEN \(retryAt) > created_at + \(AlertSchedule.retryFor) * interval '1 second' THEN due_at
                                ELSE \(retryAt) END
                  WHERE id = \(mailID)
                """,
                logger: logger
            )
        }
    }

    public func markFailed(mailID: String, reason: String, refusedAddress: Bool, now: Date) async throws {
        try await transaction("markFailed") { connection in
            let failed = try await connection.query(
                """
                UPDATE petspot_alert_mail m SET failed_at = \(now), lease_until = NULL, reason = \(reason)
                  FROM petspot_alert_subscription s WHERE m.id = \(mailID) AND s.id = m.subscription_id RETURNING s.address_hash
                """,
                logger: logger
            )
            var hash: Data?
            for try await value in failed.decode(Data.self) { hash = value }
            guard refusedAddress, let hash else { return }
            // A permanent refusal (SMTP 5xx) stops every subscription of the address, until it is asked for again.
            let stopped = try await connection.query(
                "UPDATE petspot_alert_subscription SET state = 'stopped' WHERE address_hash = \(hash) RETURNING id",
                logger: logger
            )
            var ids: [String] = []
            for try await id in stopped.decode(String.self) { ids.append(id) }
            try await dropOpenMails(of: ids, connection)
        }
    }

    public func outboxState(now: Date) async throws -> OutboxState {
        try await run("outboxState") {
            let rows = try await client.query(
                """
                SELECT count(*)::integer, min(due_at) FILTER (WHERE due_at <= \(now))
                  FROM petspot_alert_mail WHERE sent_at IS NULL AND failed_at IS NULL
                """,
                logger: logger
            )
            for try await (owed, oldest) in rows.decode((Int, Date?).self) {
                return OutboxState(owed: owed, oldestDueSeconds: oldest.map { now.timeIntervalSince($0) } ?? 0)
            }
            return OutboxState(owed: 0, oldestDueSeconds: 0)
        }
    }

    public func sweep(now: Date) async throws {
        let expired = now.addingTimeInterval(-AlertSchedule.pendingFor)
        try await transaction("sweep") { connection in
            // Their tokens, owed pets and mails go with them (ON DELETE CASCADE).
            try await connection.query(
                "DELETE FROM petspot_alert_subscription WHERE state = 'pending' AND created_at < \(expired)",
                logger: logger
            )
            // Finished mails past any use (their owed rows keep the pets owed once), and confirmations past the window.
            try await connection.query(
                "DELETE FROM petspot_alert_mail WHERE sent_at < \(expired) OR failed_at < \(expired)",
                logger: logger
            )
            let window = now.addingTimeInterval(-AlertSchedule.confirmWindow)
            try await connection.query("DELETE FROM petspot_alert_confirmation WHERE sent_at <= \(window)", logger: logger)
        }
    }
}
