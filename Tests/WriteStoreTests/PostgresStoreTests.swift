import Foundation
import PetSpotPostgres
import ReportStore
import Synchronization
import TestSupport
import Testing

/// What only the shared store does: two replicas (two stores) on one database, the code at rest, the
/// photo budget, and failing closed when the database is killed or hangs (docs/replicas.md).
@Suite("PostgreSQL write store", .serialized)
struct PostgresStoreTests {
    @Test("two replicas starting together both migrate, and see each other's submissions and limits")
    func twoReplicas() async throws {
        let cluster = try #require(ThrowawayPostgres.shared)
        try await withPostgresStore(cluster) { a in
            try await withPostgresStore(cluster) { b in
                let key = freshKey()
                guard case .owned(let owner) = try await a.claim(key, fingerprint: [1]) else {
                    Issue.record("A owns it")
                    return
                }
                #expect(try await b.claim(key, fingerprint: [1]) == .inProgress(fingerprint: [1]))
                #expect(try await a.startSending(key, owner: owner, taking: .unlimited, for: "k") == .sending(token: ""))
                try await a.markCreated(key, owner: owner, record: SubmissionRecord(petID: "p", sealed: [9], photoUploaded: true, keptPhoto: nil))
                guard case .created(let record, _) = try await b.claim(key, fingerprint: []) else {
                    Issue.record("B finds A's report")
                    return
                }
                #expect(record.petID == "p")
                let rule = LimitRule(bucket: "two-\(UUID())", limit: 2, window: .seconds(60))
                _ = try await a.take(rule, key: "k")
                _ = try await b.take(rule, key: "k")
                #expect(try await a.take(rule, key: "k") != .granted(token: ""))
                guard case .refused = try await b.take(rule, key: "k") else {
                    Issue.record("the limit is counted once for both")
                    return
                }
            }
        }
        // Version 2 added the alert tables (PostgresSchema+Alerts.swift), 3 the sightings' (PostgresSchema+Sightings.swift).
        #expect(try cluster.sql("SELECT version FROM petspot_schema").trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }

    @Test("a copy of the database holds no management code in clear")
    func noCodeAtRest() async throws {
        let cluster = try #require(ThrowawayPostgres.shared)
        let code = "SECRET-\(UInt32.random(in: 100_000...999_999))"
        try await withPostgresStore(cluster) { store in
            let reference = UUID().uuidString
            let key = SubmissionKey.form(reference)
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("owned")
                return
            }
            try await store.markCreated(
                key,
                owner: owner,
                record: SubmissionRecord(petID: "p", sealed: SubmissionSeal.seal(Array(code.utf8), for: key), photoUploaded: false, keptPhoto: nil)
            )
            let dump = try cluster.sql("SELECT s::text FROM petspot_submission s")
            #expect(!dump.isEmpty)
            #expect(!dump.contains(code))
            #expect(!dump.contains(reference))
        }
    }

    @Test("the kept photos stay within the service-wide budget, newest kept")
    func photoBudget() async throws {
        let cluster = try #require(ThrowawayPostgres.shared)
        try await withPostgresStore(cluster, photoBytes: 2_500) { store in
            _ = try cluster.sql("DELETE FROM petspot_kept_photo")
            let references = (0..<4).map { _ in UUID().uuidString }
            for reference in references {
                try await store.keepPhoto(StoredPhoto(jpeg: Array(repeating: 7, count: 1_000), width: 1, height: 1, name: "a"), reference: reference)
                // Distinct expiry times, so "newest" is well defined.
                try await Task.sleep(for: .milliseconds(5))
            }
            try await store.sweep()
            #expect(try await store.keptPhoto(references[3]) != nil)
            #expect(try await store.keptPhoto(references[2]) != nil)
            #expect(try await store.keptPhoto(references[1]) == nil)
            #expect(try await store.keptPhoto(references[0]) == nil)
        }
    }

    @Test("a killed or hung database makes every write fail closed, and writes work again once it is back")
    func outages() async throws {
        let cluster = try ThrowawayPostgres()
        defer { cluster.remove() }
        try await withPostgresStore(cluster) { postgres in
            let failures = FailureLog()
            let store = GuardedWriteStore(postgres, deadline: .milliseconds(800)) { operation, failure, _ in
                if failure != nil { failures.add(operation) }
            }
            let rule = LimitRule(bucket: "outage", limit: 100, window: .seconds(60))
            guard case .granted = try await store.take(rule, key: "a") else {
                Issue.record("works before")
                return
            }
            cluster.pause()
            await #expect(throws: WriteStoreUnavailable.self) { try await store.take(rule, key: "a") }
            await #expect(throws: WriteStoreUnavailable.self) { try await store.claim(freshKey(), fingerprint: []) }
            cluster.resume()
            try await eventually { if case .granted = try await store.take(rule, key: "a") { true } else { false } }
            cluster.kill()
            await #expect(throws: WriteStoreUnavailable.self) { try await store.claim(freshKey(), fingerprint: []) }
            try cluster.start()
            try await eventually { if case .owned = try await store.claim(freshKey(), fingerprint: []) { true } else { false } }
            #expect(failures.operations.contains("take"))
            #expect(failures.operations.contains("claim"))
        }
    }
}

/// Retries `check` (each try may fail while the pool reconnects) until it holds, at most 60 times.
func eventually(_ check: () async throws -> Bool) async throws {
    for _ in 0..<60 {
        if (try? await check()) == true { return }
        try await Task.sleep(for: .milliseconds(250))
    }
    Issue.record("did not recover")
}

final class FailureLog: Sendable {
    private let state = Mutex<[String]>([])
    func add(_ operation: String) { state.withLock { $0.append(operation) } }
    var operations: [String] { state.withLock { $0 } }
}
