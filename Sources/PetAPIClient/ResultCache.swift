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

/// A TTL cache of validated results: an expiring map (TTL, count and byte bounds) and single flight
/// (`Sources/Caching`), with stale-if-error and ETag revalidation (docs/scaling.md, docs/caches.md).
/// Keys are normalized upstream queries.
final class ResultCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var confirmedAt: ContinuousClock.Instant
        var wallConfirmedAt: Date
        var etag: String?

        var fetched: Fetched<Value> { Fetched(value: value, fetchedAt: wallConfirmedAt, confirmedAt: confirmedAt, staleBecause: nil) }
    }

    /// The validated results: each fresh for one TTL (its expiry), then kept for a stale answer
    /// or an `If-None-Match` until the bounds need its room (expired first, then least recently used).
    private let entries: ExpiringMap<String, Entry>
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
    /// How long past its TTL a held value is still answered at once while one call refreshes it in the
    /// background (the snapshot: every request waited seconds for a 50,000-item list's fetch and decode,
    /// docs/performance.md "Steady speed"); `.zero` (the details cache): the request after the TTL waits.
    private let refreshWindow: Duration
    private let onEvent: @Sendable (CacheEvent) -> Void

    /// Creates an empty cache; `now` tells the time for TTL, stale-if-error and LRU, `date` the
    /// wall-clock date of a confirmation (both injected by tests).
    init(
        ttl: Duration,
        staleMax: Duration,
        refreshWindow: Duration = .zero,
        maxEntries: Int,
        maxCost: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        date: @escaping @Sendable () -> Date = { Date() },
        onEvent: @escaping @Sendable (CacheEvent) -> Void
    ) {
        self.entries = ExpiringMap(maxEntries: maxEntries, maxBytes: maxCost, now: now)
        self.clock = now
        self.date = date
        self.ttl = ttl
        self.staleMax = staleMax
        self.refreshWindow = refreshWindow
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
        if !refreshing, let hit = entries.value(for: key) {
            onEvent(.hit)
            return hit.fetched
        }
        if !refreshing, let held = heldWhileRefreshing(key, fetch: fetch) {
            return held
        }
        return try await flights.value(for: key, restart: refreshing) { () async throws(UpstreamFailure) -> Fetched<Value> in
            try await self.call(key, refreshing: refreshing, fetch: fetch)
        }
    }

    /// The held value of `key` when its TTL has passed less than `refreshWindow` ago, with one call refreshing
    /// it in the background (started here unless one runs); nil otherwise, and the caller waits for the call.
    /// The answer is at most TTL + refresh window old, never older than `staleMax`, and is not marked stale: a
    /// refresh that fails leaves the value held, and once the window has passed the next callers wait and get
    /// stale-if-error's marking.
    func heldWhileRefreshing(
        _ key: String,
        fetch: @escaping @Sendable (_ etag: String?) async throws(UpstreamFailure) -> FetchOutcome<Value>
    ) -> Fetched<Value>? {
        guard refreshWindow > .zero, let held = entries.entry(for: key)?.value else { return nil }
        let age = clock() - held.confirmedAt
        guard age < ttl + refreshWindow, age <= staleMax else { return nil }
        flights.start(for: key) { () async throws(UpstreamFailure) -> Fetched<Value> in
            try await self.call(key, refreshing: false, fetch: fetch)
        }
        onEvent(.hit)
        return held.fetched
    }

    /// One upstream call for `key` (inside its single flight), sent the held ETag unless `refreshing`.
    private func call(
        _ key: String,
        refreshing: Bool,
        fetch: @Sendable (_ etag: String?) async throws(UpstreamFailure) -> FetchOutcome<Value>
    ) async throws(UpstreamFailure) -> Fetched<Value> {
        // A caller that missed just before the previous call stored its value, and asked just
        // after that call ended, finds the value here instead of calling again.
        if !refreshing, let hit = entries.value(for: key) {
            onEvent(.hit)
            return hit.fetched
        }
        let etag = refreshing ? nil : entries.entry(for: key)?.value.etag
        return try await refresh(key: key, etag: etag, fetch: fetch)
    }

    /// How long ago the upstream last confirmed the copy of `key` (fresh or not); nil when none is held.
    func age(of key: String) -> Duration? {
        let now = clock()
        return entries.entry(for: key).map { now - $0.value.confirmedAt }
    }

    /// The value for `key` when the cache holds it fresh (within the TTL), without waiting for
    /// anything: the synchronous path of a request answered from data already in hand, with no suspend.
    func freshValue(for key: String) -> Fetched<Value>? {
        let now = clock()
        if let entry = published[ThreadSpread.slot()].entry.withLock({ $0 }), entry.key == key, now - entry.confirmedAt < ttl {
            onEvent(.hit)
            return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: nil)
        }
        let fetched = entries.value(for: key)?.fetched
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
            // Stored and published in one step under the map's lock, so the slots change in order.
            return try entries.modify(key) { kept throws(UpstreamFailure) -> Fetched<Value> in
                switch outcome {
                case .fresh(let value, let newTag, let cost):
                    onEvent(.miss)
                    let entry = Entry(value: value, confirmedAt: now, wallConfirmedAt: wallNow, etag: newTag)
                    kept = .init(value: entry, expires: now + ttl, bytes: cost)
                    publish(PublishedEntry(key: key, value: value, confirmedAt: now, wallConfirmedAt: wallNow))
                    return entry.fetched
                case .notModified:
                    guard var entry = kept else {
                        throw .malformedBody(detail: "304 without a cached copy", upstreamRequestID: nil)
                    }
                    onEvent(.revalidated)
                    entry.value.confirmedAt = now
                    entry.value.wallConfirmedAt = wallNow
                    entry.expires = now + ttl
                    kept = entry
                    publish(PublishedEntry(key: key, value: entry.value.value, confirmedAt: now, wallConfirmedAt: wallNow))
                    return entry.value.fetched
                }
            }
        } catch {
            let now = clock()
            if let entry = entries.entry(for: key)?.value, now - entry.confirmedAt <= staleMax {
                onEvent(.stale)
                return Fetched(value: entry.value, fetchedAt: entry.wallConfirmedAt, confirmedAt: entry.confirmedAt, staleBecause: error)
            }
            throw error
        }
    }

    /// Puts `entry` in every published slot (called under the map's lock, so slots change in order).
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

    /// True when any entry was confirmed within `window` (readiness: "the cache is warm").
    func hasEntry(confirmedWithin window: Duration) -> Bool {
        let now = clock()
        return entries.contains { now - $0.value.confirmedAt <= window }
    }

    /// Number of entries and their total cost, for tests and metrics.
    var size: (entries: Int, cost: Int) {
        let size = entries.size
        return (size.entries, size.bytes)
    }
}
