import Alerts
import Foundation
import Logging
import PetDomain
import PetSpotPostgres
import TestSupport
import Testing

/// The two implementations of the alert store's contract (docs/alerts-store.md "Tests").
enum AlertStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case postgres

    var testDescription: String { rawValue }
}

/// Runs `body` with a fresh alert store of `kind`; the PostgreSQL one on a database of its own, so tests
/// running in parallel never see each other's pets or mails (the first list of each owes nothing).
func withAlertStore(_ kind: AlertStoreKind, _ body: (any AlertStore) async throws -> Void) async throws {
    switch kind {
    case .memory:
        try await body(MemoryAlertStore())
    case .postgres:
        try await withAlertDatabase { database in try await withPostgresAlertStore(database) { try await body($0) } }
    }
}

/// A fresh database on the test process's throwaway cluster; its `--database-url` is passed to `body`.
func withAlertDatabase(_ body: (String) async throws -> Void) async throws {
    let cluster = try #require(ThrowawayPostgres.shared, "PostgreSQL must be installed for these tests (scripts/test.sh installs it)")
    let name = "alerts_" + UUID().uuidString.prefix(8).lowercased()
    _ = try cluster.sql("CREATE DATABASE \(name)")
    try await body("postgres://postgres@/\(name)?host=\(cluster.folder)")
    _ = try? cluster.sql("DROP DATABASE \(name) WITH (FORCE)")
}

/// A `PostgresAlertStore` on `url`, sharing the pool of a `PostgresWriteStore` that migrated the schema
/// (as the executable composes them: one replica), stopped after `body`.
func withPostgresAlertStore(_ url: String, _ body: (PostgresAlertStore) async throws -> Void) async throws {
    try await withMigratedWriteStore(url) { writeStore, logger in try await body(PostgresAlertStore(sharing: writeStore, logger: logger)) }
}

/// A `PostgresWriteStore` on `url` that migrated the schema, running for `body`, whose stores share its pool.
func withMigratedWriteStore(_ url: String, _ body: (PostgresWriteStore, Logger) async throws -> Void) async throws {
    var logger = Logger(label: "shared-store-test")
    logger.logLevel = .critical
    let writeStore = PostgresWriteStore(
        url: try DatabaseURL(url),
        photoBytes: 1 << 20,
        replica: "test-\(UUID().uuidString.prefix(8))",
        logger: logger
    )
    let running = Task { try await writeStore.run() }
    defer { running.cancel() }
    for _ in 0..<400 where !writeStore.isReady { try await Task.sleep(for: .milliseconds(25)) }
    try #require(writeStore.isReady, "the store's schema was not migrated")
    try await body(writeStore, logger)
    running.cancel()
    _ = await running.result
}

/// A Wednesday in winter, 10:00 UTC (11:00 in Warsaw): whole seconds, so the database's microseconds keep it exact.
let winterNoon = Date(timeIntervalSince1970: 1_736_935_200)
/// Warsaw's centre.
let warsaw = (latitude: 52.2297, longitude: 21.0122)

/// An area search request of `email` around Warsaw's centre.
func searchRequest(
    _ email: String,
    rangeKm: Int = 5,
    status: AnnouncementStatus? = nil,
    species: Species? = nil,
    frequency: AlertFrequency = .instant,
    at point: (latitude: Double, longitude: Double) = warsaw
) -> SubscriptionRequest {
    let search = AlertSearch(latitude: point.latitude, longitude: point.longitude, rangeKm: rangeKm, status: status, species: species)
    return SubscriptionRequest(email: email, target: .search(search), frequency: frequency, language: "en")
}

/// Subscribes, confirms through a confirm token, and sends the confirmation mail, so the outbox holds
/// only what the test owes next. Returns the active subscription.
func activeSubscription(_ store: any AlertStore, _ request: SubscriptionRequest, now: Date) async throws -> Subscription {
    let pending = try #require(try await store.subscribe(request, now: now))
    let token = try await store.mintToken(subscriptionID: pending.id, purpose: .confirm, now: now)
    let active = try #require(try await store.confirm(token: token, now: now))
    for mail in try await store.claimDue(now: now, limit: 100) { try await store.markSent(mailID: mail.id, now: now) }
    return active
}

/// `minutes` after `date`.
func minutes(_ minutes: Double, after date: Date) -> Date { date.addingTimeInterval(minutes * 60) }
