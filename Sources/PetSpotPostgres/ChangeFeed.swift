import Alerts
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// New reports on every replica at once (docs/replicas.md "New data everywhere"): one dedicated connection
/// (LISTEN works only on a connection, not through the pool) listens on `petspot_changes`; each
/// notification from another replica refreshes this replica's snapshot. Notifications sent while it was
/// disconnected are lost, so every (re)connect refreshes once too; the cache TTL stays the fallback.
/// A ping every 10 s with a 2 s deadline finds a hung server; reconnects back off from 0.5 s to 30 s.
public final class ChangeFeed: Service {
    let url: DatabaseURL
    let replica: String
    let logger: Logger
    /// Called with the published pet's id, or nil after a (re)connect.
    let onChange: @Sendable (_ petID: String?) async -> Void
    let onConnected: @Sendable (_ connected: Bool) -> Void
    /// Called when any replica queued alert mails (`petspot_outbox`, docs/alerts.md "Delivery"), and
    /// after a (re)connect, when some may have been missed.
    let onOutbox: @Sendable () -> Void

    public init(
        url: DatabaseURL,
        replica: String,
        logger: Logger,
        onConnected: @escaping @Sendable (_ connected: Bool) -> Void = { _ in },
        onOutbox: @escaping @Sendable () -> Void = {},
        onChange: @escaping @Sendable (_ petID: String?) async -> Void
    ) {
        self.url = url
        self.replica = replica
        self.logger = logger
        self.onConnected = onConnected
        self.onOutbox = onOutbox
        self.onChange = onChange
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.listenForever() }
    }

    private func listenForever() async {
        var pause = Duration.milliseconds(500)
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                try await listenOnce(id: attempt) { pause = .milliseconds(500) }
            } catch {
                if Task.isCancelled { return }
                logger.notice("change feed disconnected; reconnecting", metadata: ["error": "\(String(reflecting: error))", "in": "\(pause)"])
            }
            onConnected(false)
            // Jitter, so replicas do not reconnect in step.
            try? await Task.sleep(for: pause * Double.random(in: 0.8...1.2))
            pause = min(pause * 2, .seconds(30))
        }
    }

    private func listenOnce(id: Int, connected: () -> Void) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: url.connectionConfiguration(applicationName: "petspot-web \(replica) feed"),
            id: id,
            logger: logger
        )
        defer { Task { try? await connection.close() } }
        // Two channels on the one connection: new reports, and mails queued by any replica.
        try await connection.listen(on: PostgresWriteStore.channel) { notifications in
            connected()
            try await connection.listen(on: PostgresAlertStore.outboxChannel) { outbox in
                try await self.serve(connection, notifications: notifications, outbox: outbox)
            }
        }
    }

    private func serve(
        _ connection: PostgresConnection,
        notifications: PostgresNotificationSequence,
        outbox: PostgresNotificationSequence
    ) async throws {
        onConnected(true)
        logger.info("change feed listening")
        await onChange(nil)
        onOutbox()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await _ in outbox { self.onOutbox() }
                throw DatabaseURLError("the outbox notification stream ended")
            }
            group.addTask {
                for try await notification in notifications {
                    let parts = notification.payload.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, parts[0] != self.replica else { continue }
                    await self.onChange(String(parts[1]))
                }
                throw DatabaseURLError("the notification stream ended")
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(10))
                    try await ReportStorePing.ping(connection, logger: self.logger)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

enum ReportStorePing {
    /// `SELECT 1` within 2 s, or an error (the connection is then dropped and made again).
    static func ping(_ connection: PostgresConnection, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await connection.query("SELECT 1", logger: logger)
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(2))
                return false
            }
            let answered = try await group.next() ?? false
            group.cancelAll()
            if !answered {
                // Closing ends the hung query, so the group can finish.
                try? await connection.close()
                throw DatabaseURLError("no answer to a ping within 2 s")
            }
        }
    }
}
