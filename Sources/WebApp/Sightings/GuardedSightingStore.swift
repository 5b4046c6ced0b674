import Foundation
import Logging
import ReportStore
import Sightings

/// The sighting store behind a deadline, as the write store is (`Sources/ReportStore/GuardedWriteStore.swift`,
/// docs/replicas.md "When the database is down or hangs"): every call answers within `deadline` or throws
/// `SightingStoreUnavailable`, so the sighting form, the owner's page, "We are reunited" and the reading of the
/// reunions fail closed in about two seconds when PostgreSQL hangs, instead of holding the visitor (and the
/// snapshot's refresh) for as long as the connection does.
///
/// The call runs in a task of its own, which is abandoned when the wait ends: postgres-nio does not cancel a
/// query already sent, and a task group would wait for it. The abandoned call finishes, or fails on
/// `statement_timeout`, by itself. Sightings are a few calls a minute, so the task and the timer per call cost
/// nothing that matters; the write path, where they did, runs a whole attempt in one task instead.
struct GuardedSightingStore: SightingStore {
    let base: any SightingStore
    let deadline: Duration
    let logger: Logger

    init(_ base: any SightingStore, deadline: Duration, logger: Logger) {
        self.base = base
        self.deadline = deadline
        self.logger = logger
    }

    /// `body` on `base`, or `SightingStoreUnavailable` when it has not answered within `deadline`.
    private func within<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (any SightingStore) async throws -> T) async throws -> T {
        let outcome = AttemptOutcome<T>()
        let base = base
        Task {
            do { outcome.resolve(.success(try await body(base))) } catch { outcome.resolve(.failure(error)) }
        }
        let deadline = deadline
        let result = await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    try? await Task.sleep(for: deadline)
                    outcome.resolve(.failure(SightingStoreUnavailable(operation: operation, detail: "no answer within \(deadline)")))
                }
                let result = await outcome.value()
                group.cancelAll()
                return result
            }
        } onCancel: {
            outcome.resolve(.failure(CancellationError()))
        }
        if case .failure(let error as SightingStoreUnavailable) = result {
            logger.error("sighting store call ended", metadata: ["operation": "\(operation)", "error": "\(error)"])
        }
        return try result.get()
    }

    func add(_ sighting: Sighting, photo: SightingPhoto?) async throws {
        try await within("add") { try await $0.add(sighting, photo: photo) }
    }
    func sightings(petID: String, limit: Int) async throws -> [Sighting] {
        try await within("sightings") { try await $0.sightings(petID: petID, limit: limit) }
    }
    func sightings(ids: [String]) async throws -> [Sighting] {
        try await within("sightings_by_id") { try await $0.sightings(ids: ids) }
    }
    func photo(sightingID: String, petID: String) async throws -> SightingPhoto? {
        try await within("photo") { try await $0.photo(sightingID: sightingID, petID: petID) }
    }
    func openAccess(petID: String, now: Date) async throws -> String {
        try await within("open_access") { try await $0.openAccess(petID: petID, now: now) }
    }
    func hasAccess(token: String, petID: String, now: Date) async throws -> Bool {
        try await within("has_access") { try await $0.hasAccess(token: token, petID: petID, now: now) }
    }
    func closeAccess(token: String) async throws {
        try await within("close_access") { try await $0.closeAccess(token: token) }
    }
    @discardableResult
    func markReunited(petID: String, now: Date) async throws -> Reunion {
        try await within("mark_reunited") { try await $0.markReunited(petID: petID, now: now) }
    }
    func undoReunited(petID: String, now: Date) async throws -> Bool {
        try await within("undo_reunited") { try await $0.undoReunited(petID: petID, now: now) }
    }
    func reunion(petID: String) async throws -> Reunion? {
        try await within("reunion") { try await $0.reunion(petID: petID) }
    }
    func reunions() async throws -> [Reunion] {
        try await within("reunions") { try await $0.reunions() }
    }
    @discardableResult
    func sweep(now: Date) async throws -> Int {
        try await within("sweep") { try await $0.sweep(now: now) }
    }
}
