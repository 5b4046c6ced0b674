import Caching
import Foundation
import Synchronization

/// A value from the cache, with how fresh it is.
public struct Fetched<Value: Sendable>: Sendable {
    /// The validated value.
    public var value: Value
    /// When the upstream last confirmed it (wall clock, for "data from 3 minutes ago").
    public var fetchedAt: Date
    /// The same instant on the cache's monotonic clock: what a TTL counts from.
    public var confirmedAt: ContinuousClock.Instant
    /// Set when the upstream failed and this older copy is served instead (stale-if-error).
    public var staleBecause: UpstreamFailure?

    /// True when served because the upstream failed.
    public var isStale: Bool { staleBecause != nil }
}

/// What one upstream fetch produced for the cache.
enum FetchOutcome<Value: Sendable>: Sendable {
    /// A new value, its ETag (for revalidation) and its cost in bytes (for the memory bound).
    case fresh(Value, etag: String?, cost: Int)
    /// The upstream answered 304 to our `If-None-Match`: the cached value is still right.
    case notModified
}

/// How the cache answered, for metrics.
public enum CacheEvent: String, Sendable {
    case hit, miss, revalidated, stale
}

/// A TTL cache of validated results with single-flight, stale-if-error, ETag revalidation and
/// bounded memory (docs/scaling.md). Keys are normalized upstream queries.
final class ResultCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var confirmedAt: ContinuousClock.Instant
        var wallConfirmedAt: Date
        var etag: String?
        var cost: Int
        var lastUsed: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalCost = 0
    }

    private let state = Mutex(State())
    /// The upstream calls in flight: one per key at a time.
    private let flights = SingleFlight<String, Fetched<Value>, UpstreamFailure>()
    /// The entry last stored, copied into a few slots each under its own lock, so the
    /// `freshValue` of every request (on every server thread) rarely meets another thread at a
    /// lock: contention on the one cache lock put threads to sleep on a priority-inheritance futex,
    /// a tenth of a random-location request (docs/performance.md). Writes (one per TTL) fill every slot.
    private let published: [PublishedSlot] = (0..<ThreadSpread.slotCount).map { _ in PublishedSlot() }
    /// The monotonic time: `ContinuousClock.now` in production, a manual clock in tests.
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// The wall-clock date, for `Fetched.fetchedAt`: the app's clock in production, a manual one in tests.
    private let date: @Sendable () -> Date
    private let ttl: Duration
    private let staleMax: Duration
    private let maxEntries: Int
    private let maxCost: Int
    private let onEvent: @Sendable (CacheEvent) -> Void

    /// Creates an empty cache; `now` tells the time for TTL, stale-if-error and LRU, `date` the
    /// wall-clock date of a confirmation (both injected by tests).
    init(
        ttl: Duration,
        staleMax: Duration,
        maxEntries: Int,
        maxCost: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        date: @escaping @Sendable () -> Date = { Date() },
        onEvent: @escaping @Sendable (CacheEvent) -> Void
    ) {
        self.clock = now
        self.date = date
        self.ttl = ttl
        self.staleMax = staleMax
        self.maxEntries = maxEntries
        self.maxCost = maxCost
        self.onEvent = onEvent
    }

    /// The value for `key`: fresh from the cache, or from one shared call of `fetch` (which gets the
    /// cached ETag), or — when that call fails — a copy no older than `staleMax`.
    /// With `refreshing`, a new call is made whatever the cache holds or is fetching (one that
    /// started earlier may have left out what was just written upstream), without an ETag.
    func value(
        for key: String,
        refreshing: Bool = false,
        fetch: @escaping @Sendable (_ etag: String?) async throws(UpstreamFailure) -> FetchOutcome<Value>
    ) async throws(UpstreamFailure) -> Fetched<Value> {
        if !refreshing, let hit = freshEntry(key, now: clock()) {
            onEvent(.hit)
            return hit
        }
        return try await flights.value(for: key, restart: refreshing) { () async throws(UpstreamFailure) -> Fetched<Value> in
            // A caller that missed just before the previous call stored its value, and asked just
            // after that call ended, finds the value here instead of calling again.
            if !refreshing, let hit = self.freshEntry(key, now: self.clock()) {
                self.onEvent(.hit)
                return hit
            }
            let etag = refreshing ? nil : self.state.withLock { $0.entries[key]?.etag }
            return try await self.refresh(key: key, etag: etag, fetch: fetch)
        }
    }

    /// The entry for `key` when it is within the TTL at `now`, marked as the most recently used.
    private func freshEntry(_ key: String, now: ContinuousClock.Instant) -> Fetched<Value>? {
        state.withLock { state in
            guard var entry = state.entries[key], now - entry.confirmedAt < ttl else { return nil }
            entry.lastUsed = now
            state.entries[key] = entry
            return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: nil)
        }
    }

    /// How long ago the upstream last confirmed the copy of `key` (fresh or not); nil when none is held.
    func age(of key: String) -> Duration? {
        let now = clock()
        return state.withLock { $0.entries[key].map { now - $0.confirmedAt } }
    }

    /// The value for `key` when the cache holds it fresh (within the TTL), without waiting for
    /// anything: the synchronous path of a request answered from data already in hand, with no suspend.
    func freshValue(for key: String) -> Fetched<Value>? {
        let now = clock()
        if let entry = published[ThreadSpread.slot()].entry.withLock({ $0 }), entry.key == key, now - entry.confirmedAt < ttl {
            onEvent(.hit)
            return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: nil)
        }
        let fetched = state.withLock { state -> Fetched<Value>? in
            guard let entry = state.entries[key], now - entry.confirmedAt < ttl else { return nil }
            return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: nil)
        }
        if fetched != nil { onEvent(.hit) }
        return fetched
    }

    private func refresh(
        key: String,
        etag: String?,
        fetch: @Sendable (_ etag: String?) async throws(UpstreamFailure) -> FetchOutcome<Value>
    ) async throws(UpstreamFailure) -> Fetched<Value> {
        do {
            let outcome = try await fetch(etag)
            let now = clock()
            let wallNow = date()
            return try state.withLock { state throws(UpstreamFailure) -> Fetched<Value> in
                switch outcome {
                case .fresh(let value, let newTag, let cost):
                    onEvent(.miss)
                    if let old = state.entries[key] { state.totalCost -= old.cost }
                    state.entries[key] = Entry(value: value, confirmedAt: now, wallConfirmedAt: wallNow, etag: newTag, cost: cost, lastUsed: now)
                    state.totalCost += cost
                    evict(&state)
                    publish(PublishedEntry(key: key, value: value, confirmedAt: now, wallConfirmedAt: wallNow))
                    return Fetched(value: value, fetchedAt: wallNow, confirmedAt: now, staleBecause: nil)
                case .notModified:
                    guard var entry = state.entries[key] else {
                        throw .malformedBody(detail: "304 without a cached copy", upstreamRequestID: nil)
                    }
                    onEvent(.revalidated)
                    entry.confirmedAt = now
                    entry.wallConfirmedAt = wallNow
                    entry.lastUsed = now
                    state.entries[key] = entry
                    publish(PublishedEntry(key: key, value: entry.value, confirmedAt: now, wallConfirmedAt: wallNow))
                    return Fetched(value: entry.value, fetchedAt: wallNow, confirmedAt: now, staleBecause: nil)
                }
            }
        } catch {
            let now = clock()
            let stale = state.withLock { state -> Fetched<Value>? in
                guard let entry = state.entries[key], now - entry.confirmedAt <= staleMax else { return nil }
                return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: error)
            }
            if let stale {
                onEvent(.stale)
                return stale
            }
            throw error
        }
    }

    /// Puts `entry` in every published slot (called under the cache lock, so slots change in order).
    private func publish(_ entry: PublishedEntry) {
        for slot in published { slot.entry.withLock { $0 = entry } }
    }

    private struct PublishedEntry {
        let key: String
        let value: Value
        let confirmedAt: ContinuousClock.Instant
        let wallConfirmedAt: Date
    }

    private final class PublishedSlot: Sendable {
        let entry = Mutex<PublishedEntry?>(nil)
    }

    /// Drops least-recently-used entries until both bounds hold (the newest entry always stays).
    private func evict(_ state: inout State) {
        while state.entries.count > maxEntries || (state.totalCost > maxCost && state.entries.count > 1) {
            guard let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return }
            state.totalCost -= oldest.value.cost
            state.entries.removeValue(forKey: oldest.key)
        }
    }

    /// True when any entry was confirmed within `window` (readiness: "the cache is warm").
    func hasEntry(confirmedWithin window: Duration) -> Bool {
        let now = clock()
        return state.withLock { $0.entries.values.contains { now - $0.confirmedAt <= window } }
    }

    /// Number of entries and their total cost, for tests and metrics.
    var size: (entries: Int, cost: Int) {
        state.withLock { ($0.entries.count, $0.totalCost) }
    }
}
