import Caching
import Foundation
import HTTPTypes
import PetAPIClient

/// The one revalidating proxy behind the photo and tile routes (docs/caches.md, docs/photos.md,
/// docs/platform.md "Map"): answers kept in a `KeptResourceCache` (Caching's byte cache, plus the optional
/// disk folder) and one origin call per key at a time (Caching's `SingleFlight`).
///
/// - A fresh answer in memory is given on the server thread (`inMemory`) and costs the origin nothing.
/// - A stale one is revalidated with its validators (ETag / Last-Modified); a 304 keeps its bytes.
/// - When the origin fails, a kept answer is served (stale on error) and the origin is asked again
///   only after `retryAfterFailureSeconds`, not on every request.
/// - An origin's 404 is a miss; with a `statusKey` the miss (and an unusable answer) is remembered
///   under it for the TTL, so every variant of one photo shares it.
///
/// What differs between photos and tiles is given, not written again: the origin call, the
/// transform of its bytes (a photo is resized, a tile passed on) and how long an answer stays fresh.
final class RevalidatingProxy<Key: Hashable & Sendable>: Sendable {
    /// What a request comes to.
    enum Outcome: Sendable {
        /// The answer; `kept` false when the origin forbade keeping it.
        case entry(KeptResource, kept: Bool)
        case missing
        case failed(status: HTTPResponse.Status)
    }

    /// How long an origin's answer may be kept.
    enum Freshness: Sendable, Equatable {
        /// Passed on, never kept (and an older copy forgotten).
        case doNotKeep
        /// Kept, fresh for `lifetime` seconds after it was checked; nil: the proxy's `ttlSeconds`.
        case keep(lifetime: Double?)
    }

    /// What the transform made of an origin's 200.
    enum Made: Sendable {
        case entry(KeptResource)
        /// No answer now (`status`); `unusable` when the origin's bytes will never make one, so the
        /// miss is remembered under the `statusKey`.
        case failed(status: HTTPResponse.Status, unusable: Bool)
    }

    /// What differs between the users of the proxy.
    struct Rules: Sendable {
        /// The counter of outcomes (`hit`, `miss`, `revalidated`, `stale`, `missing`, `failed`).
        var metric: String
        /// Seconds an answer kept without a lifetime of its own is fresh.
        var ttlSeconds: Double
        /// Seconds a stale answer is served after a failed origin call before the next try.
        var retryAfterFailureSeconds: Double
        /// The cache key of a request.
        var cacheKey: @Sendable (Key) -> KeptResourceKey
        /// Where a request's miss is remembered; nil: misses are not remembered.
        var statusKey: @Sendable (Key) -> KeptResourceKey? = { _ in nil }
        /// Calls the origin, conditionally with `validators`. Its 404 is thrown as `.notFound`, a
        /// 304 is returned only for a conditional call, and anything it cannot use is thrown.
        var fetch: @Sendable (_ key: Key, _ validators: PhotoValidators?, _ requestID: String) async throws(UpstreamFailure) -> UpstreamResponse
        /// Makes the kept answer of an origin's 200.
        var transform: @Sendable (_ key: Key, _ response: UpstreamResponse, _ requestID: String) async -> Made
        /// How long an origin's answer (a 200, or a 304 for `kept`) may be kept, judged at `now`.
        var freshness: @Sendable (_ response: UpstreamResponse, _ kept: KeptResource?, _ now: Date) -> Freshness = { _, _, _ in
            .keep(lifetime: nil)
        }
    }

    /// The kept answers, in memory and optionally on disk.
    let cache: KeptResourceCache
    let rules: Rules
    let metrics: Metrics
    /// The app's clock: an answer's freshness is judged by its wall-clock date (it outlives the
    /// process in the disk cache).
    let clock: DayClock
    /// One origin call and one transform per key at a time.
    let flights = SingleFlight<KeptResourceKey, Outcome, Never>()

    init(cache: KeptResourceCache, rules: Rules, metrics: Metrics, clock: DayClock) {
        self.cache = cache
        self.rules = rules
        self.metrics = metrics
        self.clock = clock
    }

    /// What a request needs: the answer when it is fresh in memory, else the origin (`outcome`).
    func need(_ key: Key, requestID: String) -> Need<Outcome> {
        Need(inMemory: { self.inMemory(key) }, fetch: { await self.outcome(key, requestID: requestID) })
    }

    /// Seconds `entry` stays fresh after it was checked.
    func lifetime(of entry: KeptResource) -> Double {
        entry.lifetime ?? rules.ttlSeconds
    }

    /// What the cache holds for a request.
    private enum Found {
        /// A fresh answer or remembered miss: no origin call.
        case fresh(Outcome)
        /// An answer past its freshness: revalidated with its validators.
        case stale(KeptResource)
        case nothing
    }

    /// The outcome when it is fresh in memory; nil otherwise. Called on a server thread: it only
    /// looks at the memory part of the cache.
    func inMemory(_ key: Key) -> Outcome? {
        guard case .fresh(let outcome) = found(key, lookUp: cache.memoryEntry) else { return nil }
        return outcome
    }

    /// The answer from the cache when fresh, else from the origin (one call per key at a time).
    func outcome(_ key: Key, requestID: String) async -> Outcome {
        switch found(key, lookUp: cache.entry) {
        case .fresh(let outcome): return outcome
        case .stale(let kept): return await refresh(key, kept: kept, requestID: requestID)
        case .nothing: return await refresh(key, kept: nil, requestID: requestID)
        }
    }

    private func found(_ key: Key, lookUp: (KeptResourceKey) -> KeptResource?) -> Found {
        let now = clock.date
        if let statusKey = rules.statusKey(key), let status = lookUp(statusKey), status.isFresh(ttl: rules.ttlSeconds, now: now) {
            metrics.increment(rules.metric, labels: ["outcome": "hit"])
            return .fresh(status.kind == .missing ? .missing : .failed(status: .badGateway))
        }
        guard let entry = lookUp(rules.cacheKey(key)) else { return .nothing }
        guard entry.isFresh(ttl: rules.ttlSeconds, now: now) else { return .stale(entry) }
        metrics.increment(rules.metric, labels: ["outcome": "hit"])
        return .fresh(.entry(entry, kept: true))
    }

    private func refresh(_ key: Key, kept: KeptResource?, requestID: String) async -> Outcome {
        await flights.value(for: rules.cacheKey(key)) { await self.ask(key, kept: kept, requestID: requestID) }
    }

    /// Asks the origin (conditionally when an answer is kept) and keeps what it allows.
    private func ask(_ key: Key, kept: KeptResource?, requestID: String) async -> Outcome {
        let cacheKey = rules.cacheKey(key)
        let response: UpstreamResponse
        do {
            response = try await rules.fetch(key, kept?.validators, requestID)
        } catch .notFound {
            metrics.increment(rules.metric, labels: ["outcome": "missing"])
            if let statusKey = rules.statusKey(key) {
                cache.remove(cacheKey)
                cache.keep(.status(.missing, at: clock.date), for: statusKey)
            }
            return .missing
        } catch {
            return failed(cacheKey, kept: kept, status: error.visitorStatus)
        }
        if response.status == .notModified {
            guard var revalidated = kept else { return failed(cacheKey, kept: nil, status: .badGateway) }
            metrics.increment(rules.metric, labels: ["outcome": "revalidated"])
            revalidated.checkedAt = clock.date
            return keep(revalidated, freshness: rules.freshness(response, kept, clock.date), key: cacheKey)
        }
        metrics.increment(rules.metric, labels: ["outcome": "miss"])
        switch await rules.transform(key, response, requestID) {
        case .entry(let entry):
            if let statusKey = rules.statusKey(key) { cache.remove(statusKey) }
            return keep(entry, freshness: rules.freshness(response, nil, clock.date), key: cacheKey)
        case .failed(let status, let unusable):
            if unusable, let statusKey = rules.statusKey(key) {
                cache.remove(cacheKey)
                cache.keep(.status(.unusable, at: clock.date), for: statusKey)
            }
            return .failed(status: status)
        }
    }

    /// Keeps `entry` for as long as `freshness` allows; `doNotKeep` forgets any older copy.
    private func keep(_ entry: KeptResource, freshness: Freshness, key: KeptResourceKey) -> Outcome {
        switch freshness {
        case .doNotKeep:
            cache.remove(key)
            return .entry(entry, kept: false)
        case .keep(let lifetime):
            var kept = entry
            kept.lifetime = lifetime
            cache.keep(kept, for: key)
            return .entry(kept, kept: true)
        }
    }

    /// A failed origin call: the kept answer when there is one (stale on error), else the failure.
    private func failed(_ key: KeptResourceKey, kept: KeptResource?, status: HTTPResponse.Status) -> Outcome {
        guard var stale = kept else {
            metrics.increment(rules.metric, labels: ["outcome": "failed"])
            return .failed(status: status)
        }
        metrics.increment(rules.metric, labels: ["outcome": "stale"])
        stale.lifetime = rules.retryAfterFailureSeconds
        stale.checkedAt = clock.date
        cache.keep(stale, for: key)
        return .entry(stale, kept: true)
    }
}
