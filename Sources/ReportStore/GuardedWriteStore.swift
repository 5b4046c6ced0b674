import Foundation
import Synchronization

/// A write store behind a deadline (docs/replicas.md "When the database is down or hangs"): every call
/// answers within `deadline` or throws `WriteStoreUnavailable`, so the write path fails closed in about two
/// seconds whatever the store does. A query already sent to PostgreSQL is not cancelled with its task
/// (postgres-nio has no cancellation for it) and with the server unreachable the pool queues leases
/// until its circuit breaker trips; so it is the wait that ends, and the abandoned call finishes (or
/// fails on `statement_timeout`) on its own. `onResult` feeds the store metrics (up, failures and time by operation).
///
/// A write is one `attempt`: one task runs all of its calls, one timer watches them (`AttemptWatch`). A call
/// made outside an attempt is an attempt of its own.
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

    /// Runs one write attempt: `body` in one task of its own, its calls on the store it is given made there
    /// directly, and one timer child of the waiting request that ends the wait with `WriteStoreUnavailable` when
    /// a call has not answered within `deadline`. The attempt's task is unstructured on purpose: it finishes
    /// when the visitor goes away (a repeat finds its outcome, not a half-made report), and it is what is
    /// abandoned when the store hangs (a task group would wait for it, and a hung connection never ends). A
    /// call that answers after its deadline throws, so an abandoned attempt never goes on with what the
    /// visitor was told failed; calls it makes after that (giving back what it took) run unwatched.
    ///
    /// While the attempt owns a submission (from a claim that returned `.owned` to its `markCreated`,
    /// `markUnknown` or `release`), a second child renews the lease every `SubmissionLease.renewEvery`.
    public func attempt<T: Sendable>(_ body: @escaping @Sendable (any WriteStore) async throws -> T) async throws -> T {
        try await run(renewing: true, body)
    }

    private func run<T: Sendable>(renewing: Bool, _ body: @escaping @Sendable (any WriteStore) async throws -> T) async throws -> T {
        let outcome = AttemptOutcome<T>()
        let watch = AttemptWatch(deadline: deadline, onResult: onResult) { outcome.resolve(.failure($0)) }
        let store = AttemptStore(base: base, watch: watch)
        Task {
            await withDiscardingTaskGroup { group in
                if renewing { group.addTask { await watch.renewWhileOwned(base) } }
                let result: Result<T, any Error>
                do { result = .success(try await body(store)) } catch { result = .failure(error) }
                // Answered before the group waits for its children: a renewal stuck in a hung call holds
                // only this task.
                outcome.resolve(result)
                watch.finish()
                group.cancelAll()
            }
        }
        let result = await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await watch.keepTime() }
                let result = await outcome.value()
                watch.finish()
                group.cancelAll()
                return result
            }
        } onCancel: {
            // The visitor went away: the wait ends now, the attempt goes on.
            outcome.resolve(.failure(CancellationError()))
            watch.finish()
        }
        return try result.get()
    }

    private func one<T: Sendable>(_ body: @escaping @Sendable (any WriteStore) async throws -> T) async throws -> T {
        try await run(renewing: false, body)
    }

    public func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        try await one { try await $0.claim(key, fingerprint: fingerprint) }
    }
    public func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        try await one { try await $0.renew(key, owner: owner) }
    }
    public func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        try await one { try await $0.startSending(key, owner: owner, taking: rule, for: limitKey) }
    }
    public func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        try await one { try await $0.markCreated(key, owner: owner, record: record) }
    }
    public func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        try await one { try await $0.markUnknown(key, owner: owner) }
    }
    public func release(_ key: SubmissionKey, owner: String) async throws {
        try await one { try await $0.release(key, owner: owner) }
    }
    public func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        try await one { try await $0.complete(petID: petID, key: key, keptPhoto: keptPhoto) }
    }
    public func forgetRetries(petID: String) async throws {
        try await one { try await $0.forgetRetries(petID: petID) }
    }
    public func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        try await one { try await $0.keepPhoto(photo, reference: reference) }
    }
    public func keptPhoto(_ reference: String) async throws -> StoredPhoto? {
        try await one { try await $0.keptPhoto(reference) }
    }
    public func dropPhoto(_ reference: String) async throws {
        try await one { try await $0.dropPhoto(reference) }
    }
    public func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        try await one { try await $0.take(rule, key: key) }
    }
    public func refund(_ rule: LimitRule, key: String, token: String) async throws {
        try await one { try await $0.refund(rule, key: key, token: token) }
    }
    public func announce(petID: String) async throws {
        try await one { try await $0.announce(petID: petID) }
    }
}

/// What a waiting request gets from its attempt: the first of the attempt's result, the timer's
/// `WriteStoreUnavailable`, or the visitor's going away. Also the sighting store's guard
/// (`Sources/WebApp/Sightings/GuardedSightingStore.swift`): the first answer wins, later ones are dropped.
package final class AttemptOutcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<Result<T, any Error>, Never>?
    }
    private let state = Mutex(State())

    package init() {}

    package func resolve(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<T, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    package func value() async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// One attempt's calls as its timer and its renewal see them: the call at work and since when, whether the
/// wait has ended, and the submission it owns.
final class AttemptWatch: Sendable {
    private struct Call {
        let id: Int
        let operation: String
        let started: ContinuousClock.Instant
    }

    private struct State {
        var calls = 0
        var pending: Call?
        /// The request's wait has ended (answered, timed out, or the visitor left): later calls run unwatched.
        var done = false
        /// A call passed its deadline: the one at work answers late, and throws.
        var expired = false
        /// The timer, while no call is at work.
        var timer: CheckedContinuation<Void, Never>?
        var lease: (key: SubmissionKey, owner: String)?
        var leaseEnded = false
    }

    private let state = Mutex(State())
    let deadline: Duration
    let onResult: @Sendable (_ operation: String, _ failure: WriteStoreUnavailable?, _ seconds: Double) -> Void
    private let expire: @Sendable (WriteStoreUnavailable) -> Void

    init(
        deadline: Duration,
        onResult: @escaping @Sendable (_ operation: String, _ failure: WriteStoreUnavailable?, _ seconds: Double) -> Void,
        expire: @escaping @Sendable (WriteStoreUnavailable) -> Void
    ) {
        self.deadline = deadline
        self.onResult = onResult
        self.expire = expire
    }

    static func seconds(since started: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Runs one call of the attempt in the attempt's task, watched by the timer while the request waits.
    func call<R: Sendable>(_ operation: String, _ work: () async throws -> R) async throws -> R {
        let started = ContinuousClock.now
        let (id, watched, timer) = state.withLock { state in
            state.calls += 1
            let watched = !state.done
            if watched { state.pending = Call(id: state.calls, operation: operation, started: started) }
            defer { state.timer = nil }
            return (state.calls, watched, state.timer)
        }
        timer?.resume()
        let result: Result<R, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        let late = state.withLock { state in
            if state.pending?.id == id { state.pending = nil }
            return watched && state.expired
        }
        // The timer counted it as failed already.
        if late { throw WriteStoreUnavailable(operation: operation, detail: "answered after the deadline of \(deadline)") }
        switch result {
        case .success(let value):
            onResult(operation, nil, Self.seconds(since: started))
            return value
        case .failure(let error as WriteStoreUnavailable):
            onResult(operation, error, Self.seconds(since: started))
            throw error
        case .failure(let error):
            let failure = WriteStoreUnavailable(operation: operation, detail: String(describing: error))
            onResult(operation, failure, Self.seconds(since: started))
            throw failure
        }
    }

    /// The request's wait has ended: the timer stops.
    func finish() {
        let timer = state.withLock { state in
            state.done = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.resume()
    }

    /// The timer (a child of the waiting request): sleeps while no call is at work, and otherwise until the
    /// deadline of the call at work; if that call still has not answered then, the wait ends with
    /// `WriteStoreUnavailable`.
    func keepTime() async {
        enum Step {
            case stop
            case idle
            case watch(Call)
        }
        while true {
            let step = state.withLock { state -> Step in
                if state.done { return .stop }
                if let call = state.pending { return .watch(call) }
                return .idle
            }
            switch step {
            case .stop:
                return
            case .idle:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state in
                        guard !state.done, state.pending == nil else { return true }
                        state.timer = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            case .watch(let call):
                do { try await Task.sleep(until: call.started + deadline, clock: .continuous) } catch { return }
                let late = state.withLock { state in
                    guard !state.done, state.pending?.id == call.id else { return false }
                    state.expired = true
                    state.done = true
                    return true
                }
                guard late else { continue }
                let failure = WriteStoreUnavailable(operation: call.operation, detail: "no answer within \(deadline)")
                onResult(call.operation, failure, Self.seconds(since: call.started))
                expire(failure)
                return
            }
        }
    }

    /// The attempt owns `key` now (its lease is renewed until `endLease`).
    func own(_ key: SubmissionKey, owner: String) { state.withLock { $0.lease = (key, owner) } }

    /// The attempt no longer holds a lease (it recorded what it made, or freed the key).
    func endLease() {
        state.withLock { state in
            state.lease = nil
            state.leaseEnded = true
        }
    }

    /// The renewal (a child of the attempt's task): every `SubmissionLease.renewEvery` while the attempt owns a
    /// submission, on the store itself; a failure (the store down for a moment) is retried at the next beat.
    func renewWhileOwned(_ base: any WriteStore) async {
        while true {
            do { try await Task.sleep(for: SubmissionLease.renewEvery) } catch { return }
            let (lease, ended) = state.withLock { ($0.lease, $0.leaseEnded) }
            guard let lease else {
                if ended { return }
                continue
            }
            let started = ContinuousClock.now
            do {
                _ = try await base.renew(lease.key, owner: lease.owner)
                onResult("renew", nil, Self.seconds(since: started))
            } catch {
                onResult("renew", WriteStoreUnavailable(operation: "renew", detail: "\(error)"), Self.seconds(since: started))
            }
        }
    }
}

/// The store an attempt's body is given: every call made in the attempt's task, watched (`AttemptWatch.call`).
struct AttemptStore: WriteStore {
    let base: any WriteStore
    let watch: AttemptWatch

    func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        let claim = try await watch.call("claim") { try await base.claim(key, fingerprint: fingerprint) }
        if case .owned(let owner) = claim { watch.own(key, owner: owner) }
        return claim
    }
    func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        try await watch.call("renew") { try await base.renew(key, owner: owner) }
    }
    func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        try await watch.call("start_sending") { try await base.startSending(key, owner: owner, taking: rule, for: limitKey) }
    }
    func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        watch.endLease()
        try await watch.call("mark_created") { try await base.markCreated(key, owner: owner, record: record) }
    }
    func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        watch.endLease()
        try await watch.call("mark_unknown") { try await base.markUnknown(key, owner: owner) }
    }
    func release(_ key: SubmissionKey, owner: String) async throws {
        watch.endLease()
        try await watch.call("release") { try await base.release(key, owner: owner) }
    }
    func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        try await watch.call("complete") { try await base.complete(petID: petID, key: key, keptPhoto: keptPhoto) }
    }
    func forgetRetries(petID: String) async throws {
        try await watch.call("forget_retries") { try await base.forgetRetries(petID: petID) }
    }
    func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        try await watch.call("keep_photo") { try await base.keepPhoto(photo, reference: reference) }
    }
    func keptPhoto(_ reference: String) async throws -> StoredPhoto? {
        try await watch.call("kept_photo") { try await base.keptPhoto(reference) }
    }
    func dropPhoto(_ reference: String) async throws {
        try await watch.call("drop_photo") { try await base.dropPhoto(reference) }
    }
    func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        try await watch.call("take") { try await base.take(rule, key: key) }
    }
    func refund(_ rule: LimitRule, key: String, token: String) async throws {
        try await watch.call("refund") { try await base.refund(rule, key: key, token: token) }
    }
    func announce(petID: String) async throws {
        try await watch.call("announce") { try await base.announce(petID: petID) }
    }
}
