import Synchronization

/// One value made per data generation (a snapshot's number, or a reuse key that also changes at
/// midnight) and kept while that generation is the current one: the cards, Atom entries, poster
/// codes, whole API list and matches of a snapshot (docs/caches.md). The value is made under the
/// memo's lock, so callers of one generation that arrive meanwhile wait for that one and then use
/// it; what the value fills in later (entries per item) it keeps itself, through `ifKept`.
///
/// A newer generation replaces the kept value. A request still on an older generation than the
/// kept one, or on one `retire(below:)` has passed (a new snapshot replaced it), gets a value made
/// for it alone, not kept: a replaced snapshot's data is let go when its successor arrives, not
/// when the next request of its kind comes.
///
/// The lookups are `@inlinable`: they run once per page or feed request, and a generic type called
/// from another module is otherwise unspecialized.
public final class SnapshotMemo<Value: Sendable>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var generation = Int.min
        @usableFromInline var value: Value?
        /// The oldest generation whose value may still be kept (`retire(below:)`).
        @usableFromInline var floor = Int.min

        @inlinable init() {}

        /// Whether a value made for `generation` may be kept: not older than the kept one nor retired.
        @inlinable
        func mayKeep(_ generation: Int) -> Bool {
            generation >= floor && (value == nil || generation > self.generation)
        }
    }

    @usableFromInline let state = Mutex(State())

    /// An empty memo.
    public init() {}

    /// Runs `body` under the memo's lock on the value of `generation`: the kept one, or `make()`
    /// kept now when `generation` is newer than the kept one (`isKept` true), or `make()` for this
    /// call alone when it is older or retired (`isKept` false: changes to it are not kept).
    @inlinable
    public func withValue<Result: Sendable>(
        for generation: Int,
        make: () -> Value,
        _ body: (_ value: inout Value, _ isKept: Bool) -> Result
    ) -> Result {
        state.withLock { state -> Result in
            if state.generation == generation, var value = state.value {
                state.value = nil  // held once while `body` changes it: no copy of what it holds
                defer { state.value = value }
                return body(&value, true)
            }
            var value = make()
            guard state.mayKeep(generation) else { return body(&value, false) }
            let result = body(&value, true)
            state.generation = generation
            state.value = value
            return result
        }
    }

    /// The value of `generation`, kept or made now as `withValue` does, and whether it is kept.
    @inlinable
    public func value(for generation: Int, make: () -> Value) -> (value: Value, isKept: Bool) {
        withValue(for: generation, make: make) { value, isKept in (value, isKept) }
    }

    /// The kept value of `generation`, made now and kept when `generation` is newer than the kept
    /// one; nil when it is older or retired (the caller makes what it needs without a value).
    @inlinable
    public func keptValue(for generation: Int, make: () -> Value) -> Value? {
        state.withLock { state -> Value? in
            if state.generation == generation, let value = state.value { return value }
            guard state.mayKeep(generation) else { return nil }
            let value = make()
            state.generation = generation
            state.value = value
            return value
        }
    }

    /// Keeps `value` as that of `generation` when it is newer than the kept one and not retired (a value made
    /// ahead of its generation's first request: `PageCaches.prepare`).
    public func keep(_ value: Value, for generation: Int) {
        state.withLock { state in
            guard state.mayKeep(generation) else { return }
            state.generation = generation
            state.value = value
        }
    }

    /// Runs `body` on the kept value when it is still that of `generation` (what was made outside
    /// the lock is kept only there); nil when another generation's value, or none, is kept.
    @inlinable
    public func ifKept<Result: Sendable>(generation: Int, _ body: (inout Value) -> Result) -> Result? {
        state.withLock { state -> Result? in
            guard state.generation == generation, var value = state.value else { return nil }
            state.value = nil
            defer { state.value = value }
            return body(&value)
        }
    }

    /// Runs `body` on the kept value, whatever its generation; nil when none is kept.
    public func withKept<Result: Sendable>(_ body: (_ generation: Int, _ value: inout Value) -> Result) -> Result? {
        state.withLock { state -> Result? in
            guard var value = state.value else { return nil }
            state.value = nil
            defer { state.value = value }
            return body(state.generation, &value)
        }
    }

    /// Lets go of the value of a generation before `generation` (a new snapshot replaces it) and
    /// keeps none for those generations from now on.
    public func retire(below generation: Int) {
        state.withLock { state in
            state.floor = max(state.floor, generation)
            if state.value != nil, state.generation < generation { state.value = nil }
        }
    }

    /// The generation of the kept value; nil when none is kept (tests and metrics).
    public var keptGeneration: Int? {
        state.withLock { $0.value == nil ? nil : $0.generation }
    }
}
