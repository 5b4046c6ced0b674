import Synchronization

/// One run of an operation per key at a time: callers that ask for a key while its operation runs
/// wait for that run and share its outcome, value or error, instead of each starting their own
/// (one upstream call for a hundred visitors of a cold page, one conversion per photo variant).
///
/// The operation runs in a task of its own, not in the caller's: a caller that is cancelled still
/// waits for the shared outcome (the others need it), and the operation is never cancelled
/// through a caller. The key is forgotten when its run ends, so the next call after that starts
/// a new run; keep the outcome in a cache to reuse it beyond that.
///
/// ```swift
/// let flights = SingleFlight<KeptResourceKey, Outcome, Never>()
/// let outcome = await flights.value(for: key) { await self.refresh(key) }
/// ```
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    private struct Flight {
        /// Tells runs of one key apart, so a run ending forgets only itself (see `restart`).
        let number: Int
        let task: Task<Result<Value, Failure>, Never>
        /// Callers that asked for this run (its starter included, unless it was started in the background).
        var callers: Int
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var started = 0
    }

    private let state = Mutex(State())

    /// No operation running.
    public init() {}

    /// The outcome of the run in flight for `key`, or of `operation` run now when none is.
    /// With `restart`, `operation` runs now even when a run is in flight (one that started
    /// earlier may have read data that has changed since): callers from now on wait for the new
    /// run, those already waiting keep the old one.
    public func value(
        for key: Key,
        restart: Bool = false,
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await run(key, restart: restart, operation).task.value.get()
    }

    /// Starts `operation` for `key` unless a run is in flight, without waiting for its outcome (a refresh
    /// in the background, while the caller answers from what it holds); returns whether it started one.
    /// Callers of `value(for:)` from now on share that run as any other.
    @discardableResult
    public func start(for key: Key, _ operation: @escaping @Sendable () async throws(Failure) -> Value) -> Bool {
        run(key, restart: false, operation, joining: false).started
    }

    /// The run in flight for `key` (joined: one more caller) or a new one; `started` when it is new.
    private func run(
        _ key: Key,
        restart: Bool,
        _ operation: @escaping @Sendable () async throws(Failure) -> Value,
        joining: Bool = true
    ) -> (task: Task<Result<Value, Failure>, Never>, started: Bool) {
        state.withLock { state -> (task: Task<Result<Value, Failure>, Never>, started: Bool) in
            if !restart, let running = state.flights[key] {
                if joining { state.flights[key]?.callers += 1 }
                return (running.task, false)
            }
            state.started += 1
            let number = state.started
            // Made under the lock, so its ending (which takes the lock) finds it registered.
            let task = Task { () async -> Result<Value, Failure> in
                defer {
                    self.state.withLock { state in
                        if state.flights[key]?.number == number { state.flights.removeValue(forKey: key) }
                    }
                }
                do throws(Failure) {
                    return .success(try await operation())
                } catch {
                    return .failure(error)
                }
            }
            state.flights[key] = Flight(number: number, task: task, callers: joining ? 1 : 0)
            return (task, true)
        }
    }

    /// Whether a run for `key` is in flight.
    public func isRunning(_ key: Key) -> Bool {
        state.withLock { $0.flights[key] != nil }
    }

    /// How many callers asked for the run in flight for `key` (0 when none runs): tests wait for
    /// all their callers to have joined before letting the run finish.
    public func callers(of key: Key) -> Int {
        state.withLock { $0.flights[key]?.callers ?? 0 }
    }

    /// Number of keys with a run in flight (tests and metrics).
    public var runningCount: Int {
        state.withLock { $0.flights.count }
    }
}
