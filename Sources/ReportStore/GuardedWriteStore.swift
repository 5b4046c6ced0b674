import Foundation
import Synchronization

/// A write store behind a deadline (docs/replicas.md "When the database is down or hangs"): every call
/// answers within `deadline` or throws `WriteStoreUnavailable`, so the write path fails closed in about two
/// seconds whatever the store does. A query already sent to PostgreSQL is not cancelled with its task
/// (postgres-nio has no cancellation for it) and with the server unreachable the pool queues leases
/// until its circuit breaker trips; so the wait is raced here, and the abandoned call finishes (or
/// fails on `statement_timeout`) on its own. `onResult` feeds the store metrics (up, failures and time by operation).
public struct GuardedWriteStore: WriteStore {
    let base: any WriteStore
    let deadline: Duration
    let onResult: @Sendable (_ operation: String, _ failure: WriteStoreUnavailable?, _ seconds: Double) -> Void

    public init(
        _ base: any WriteStore,
        deadline: Duration = .seconds(2),
        onResult: @escaping @Sendable (_ operation: String, _ failure: WriteStoreUnavailable?, _ seconds: Double) -> Void = { _, _, _ in }
    ) {
        self.base = base
        self.deadline = deadline
        self.onResult = onResult
    }

    public func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        try await guarded("claim") { [base] in try await base.claim(key, fingerprint: fingerprint) }
    }
    public func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        try await guarded("renew") { [base] in try await base.renew(key, owner: owner) }
    }
    public func markSending(_ key: SubmissionKey, owner: String) async throws -> Bool {
        try await guarded("mark_sending") { [base] in try await base.markSending(key, owner: owner) }
    }
    public func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        try await guarded("mark_created") { [base] in try await base.markCreated(key, owner: owner, record: record) }
    }
    public func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        try await guarded("mark_unknown") { [base] in try await base.markUnknown(key, owner: owner) }
    }
    public func release(_ key: SubmissionKey, owner: String) async throws {
        try await guarded("release") { [base] in try await base.release(key, owner: owner) }
    }
    public func markPhotoUploaded(_ key: SubmissionKey) async throws {
        try await guarded("mark_photo_uploaded") { [base] in try await base.markPhotoUploaded(key) }
    }
    public func forgetRetries(petID: String) async throws {
        try await guarded("forget_retries") { [base] in try await base.forgetRetries(petID: petID) }
    }
    public func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        try await guarded("keep_photo") { [base] in try await base.keepPhoto(photo, reference: reference) }
    }
    public func keptPhoto(_ reference: String) async throws -> StoredPhoto? {
        try await guarded("kept_photo") { [base] in try await base.keptPhoto(reference) }
    }
    public func dropPhoto(_ reference: String) async throws {
        try await guarded("drop_photo") { [base] in try await base.dropPhoto(reference) }
    }
    public func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        try await guarded("take") { [base] in try await base.take(rule, key: key) }
    }
    public func refund(_ rule: LimitRule, key: String, token: String) async throws {
        try await guarded("refund") { [base] in try await base.refund(rule, key: key, token: token) }
    }
    public func announce(petID: String) async throws {
        try await guarded("announce") { [base] in try await base.announce(petID: petID) }
    }

    /// Runs `work`, answering within `deadline`: its result, or `WriteStoreUnavailable`.
    private func guarded<T: Sendable>(_ operation: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        func seconds() -> Double {
            let elapsed = ContinuousClock.now - started
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        do {
            let value = try await Deadline.race(deadline, operation: operation, work)
            onResult(operation, nil, seconds())
            return value
        } catch let error as WriteStoreUnavailable {
            onResult(operation, error, seconds())
            throw error
        } catch {
            let failure = WriteStoreUnavailable(operation: operation, detail: String(describing: error))
            onResult(operation, failure, seconds())
            throw failure
        }
    }
}

/// Races an async call against a timer, resolving one continuation with whichever ends first (a task
/// group would wait for its child, which a hung connection never ends).
public enum Deadline {
    private final class Once<T: Sendable>: Sendable {
        let continuation: Mutex<CheckedContinuation<T, any Error>?>
        let timer = Mutex<Task<Void, Never>?>(nil)
        init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }
        func resume(_ result: Result<T, any Error>) -> Bool {
            guard let continuation = continuation.withLock({ $0.take() }) else { return false }
            continuation.resume(with: result)
            return true
        }
    }

    public static func race<T: Sendable>(
        _ deadline: Duration,
        operation: String,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = Once(continuation)
            let worker = Task {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                if once.resume(result) { once.timer.withLock { $0 }?.cancel() }
            }
            let timer = Task {
                try? await Task.sleep(for: deadline)
                guard !Task.isCancelled else { return }
                let late = WriteStoreUnavailable(operation: operation, detail: "no answer within \(deadline)")
                if once.resume(.failure(late)) { worker.cancel() }
            }
            once.timer.withLock { $0 = timer }
        }
    }
}
