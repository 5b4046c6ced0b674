import Foundation
import ReportStore
import Synchronization
import TestSupport
import Testing

/// One attempt, one deadline (`GuardedWriteStore.attempt`, docs/replicas.md "When the database is down or
/// hangs"): a store that never answers ends the wait, not the attempt; an answer after the deadline is not used.
@Suite("Guarded write store")
struct GuardedWriteStoreTests {
    @Test("an attempt whose store hangs fails closed within the deadline, and its late answer is not used")
    func hungStoreEndsTheWait() async throws {
        let hung = HangingStore(MemoryWriteStore(photoBytes: 1 << 20))
        let failures = FailureLog()
        let store = GuardedWriteStore(hung, deadline: .milliseconds(300)) { operation, failure, _ in
            if failure != nil { failures.add(operation) }
        }
        let key = freshKey()
        let wentOn = Mutex(false)
        let started = ContinuousClock.now
        await #expect(throws: WriteStoreUnavailable.self) {
            try await store.attempt { store in
                guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else { return }
                hung.hang()
                _ = try await store.startSending(key, owner: owner, taking: .unlimited, for: "x")
                wentOn.withLock { $0 = true }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2), "the wait ended at the deadline, not with the store")
        #expect(failures.operations == ["start_sending"])
        hung.answer()
        // The abandoned attempt sees its call answer late: it throws there and never goes on.
        try await Task.sleep(for: .milliseconds(200))
        #expect(wentOn.withLock { $0 } == false)
    }

    @Test("a call outside an attempt is guarded the same way")
    func plainCallIsGuarded() async throws {
        let hung = HangingStore(MemoryWriteStore(photoBytes: 1 << 20))
        let store = GuardedWriteStore(hung, deadline: .milliseconds(300))
        hung.hang()
        let started = ContinuousClock.now
        await #expect(throws: WriteStoreUnavailable.self) { try await store.claim(freshKey(), fingerprint: []) }
        #expect(ContinuousClock.now - started < .seconds(2))
        hung.answer()
    }

    @Test("errors of the attempt's own pass through as they are; the store's become WriteStoreUnavailable")
    func errorsPassThrough() async throws {
        struct Refused: Error {}
        let store = GuardedWriteStore(MemoryWriteStore(photoBytes: 1 << 20))
        await #expect(throws: Refused.self) { try await store.attempt { _ in throw Refused() } }
        let value = try await store.attempt { store in try await store.take(.unlimited, key: "a") }
        #expect(value == .granted(token: ""))
    }
}

/// A store whose `startSending` and `claim` wait, once `hang()` was called, until `answer()`: a hung connection
/// that comes back.
final class HangingStore: WriteStore {
    let base: MemoryWriteStore
    private let state = Mutex<(hanging: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(_ base: MemoryWriteStore) { self.base = base }

    func hang() { state.withLock { $0.hanging = true } }

    func answer() {
        let waiters = state.withLock { state in
            state.hanging = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.hanging else { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        await wait()
        return try await base.claim(key, fingerprint: fingerprint)
    }
    func renew(_ key: SubmissionKey, owner: String) async throws -> Bool { try await base.renew(key, owner: owner) }
    func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        await wait()
        return try await base.startSending(key, owner: owner, taking: rule, for: limitKey)
    }
    func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        try await base.markCreated(key, owner: owner, record: record)
    }
    func markUnknown(_ key: SubmissionKey, owner: String) async throws { try await base.markUnknown(key, owner: owner) }
    func release(_ key: SubmissionKey, owner: String) async throws { try await base.release(key, owner: owner) }
    func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        try await base.complete(petID: petID, key: key, keptPhoto: keptPhoto)
    }
    func forgetRetries(petID: String) async throws { try await base.forgetRetries(petID: petID) }
    func keepPhoto(_ photo: StoredPhoto, reference: String) async throws { try await base.keepPhoto(photo, reference: reference) }
    func keptPhoto(_ reference: String) async throws -> StoredPhoto? { try await base.keptPhoto(reference) }
    func dropPhoto(_ reference: String) async throws { try await base.dropPhoto(reference) }
    func take(_ rule: LimitRule, key: String) async throws -> LimitTake { try await base.take(rule, key: key) }
    func refund(_ rule: LimitRule, key: String, token: String) async throws { try await base.refund(rule, key: key, token: token) }
    func announce(petID: String) async throws { try await base.announce(petID: petID) }
}
