import Foundation
import Logging
import PetSpotPostgres
import ReportStore
import TestSupport
import Testing

/// The two implementations of one contract (docs/replicas.md "Tests").
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case postgres

    var testDescription: String { rawValue }
}

/// Runs `body` with a fresh store of `kind`: the PostgreSQL one on the test process's throwaway cluster
/// (`ThrowawayPostgres.shared`), running as it does in the server's service group.
func withStore(_ kind: StoreKind, photoBytes: Int = 1 << 20, _ body: (any WriteStore) async throws -> Void) async throws {
    switch kind {
    case .memory:
        try await body(MemoryWriteStore(photoBytes: photoBytes))
    case .postgres:
        let cluster = try #require(ThrowawayPostgres.shared, "PostgreSQL must be installed for these tests (scripts/test.sh installs it)")
        try await withPostgresStore(cluster, photoBytes: photoBytes) { try await body($0) }
    }
}

/// A `PostgresWriteStore` on `cluster`, migrated and running, stopped after `body`.
func withPostgresStore(_ cluster: ThrowawayPostgres, photoBytes: Int = 1 << 20, _ body: (PostgresWriteStore) async throws -> Void) async throws {
    var logger = Logger(label: "write-store-test")
    logger.logLevel = .critical
    let store = PostgresWriteStore(
        url: try DatabaseURL(cluster.url),
        photoBytes: photoBytes,
        replica: "test-\(UUID().uuidString.prefix(8))",
        logger: logger
    )
    let running = Task { try await store.run() }
    defer { running.cancel() }
    for _ in 0..<400 where !store.isReady { try await Task.sleep(for: .milliseconds(25)) }
    try #require(store.isReady, "the store's schema was not migrated")
    try await body(store)
    running.cancel()
    _ = await running.result
}

/// A key no other test uses.
func freshKey() -> SubmissionKey { .form(UUID().uuidString) }
