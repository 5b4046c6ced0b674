import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

/// Rendered pages (and encoded API bodies) kept for reuse (docs/scaling.md): a page is a
/// pure function of its normalized URL and the snapshot (docs/upstream.md §4), so the same key over the
/// same snapshot generation answers the same bytes. Bounded by bytes with least-recently-used
/// eviction, so a million distinct visitor locations cannot grow memory; a new generation empties
/// it. Stale pages (with their "saved N minutes ago" notice) are never kept.
///
/// A page is kept the second time it is made, not the first (nginx's `proxy_cache_min_uses 2`):
/// most located pages are asked for once (one visitor, one place), and keeping each of them only
/// to evict an older page cost more than rendering (measured under random-location load). Which keys
/// were made once is remembered in a small direct-mapped table of key hashes per shard.
///
/// Split into shards by key, each with its own lock and an equal share of the budget: every
/// request looks up here, and one lock for all server threads was measurably contended.
final class RenderedPages: Sendable {
    private struct ShardState {
        var cache: LRUByteCache<String, Response>
        /// Hashes of keys made once and not kept yet, by `hash & (seenSlots - 1)`.
        var seen: [Int]
    }

    private static let shardCount = 8
    /// Keys remembered as made once, per shard (a power of two).
    private static let seenSlots = 4096
    private let shards: Shards<ShardState>
    /// The byte budget.
    let maxBytes: Int

    /// Keeps pages whose bodies (plus key and a fixed overhead per entry) add up to at most `maxBytes`.
    init(maxBytes: Int) {
        self.maxBytes = maxBytes
        shards = Shards(count: RenderedPages.shardCount) {
            ShardState(cache: LRUByteCache(maxBytes: maxBytes / RenderedPages.shardCount), seen: Array(repeating: 0, count: RenderedPages.seenSlots))
        }
    }

    /// The page kept for `key` from snapshot `generation`, if any.
    func cached(_ key: String, generation: Int) -> Response? {
        shards.withLock(Shards<ShardState>.hash(key)) { $0.cache.value(for: key, generation: generation) }
    }

    /// Keeps a 200 `response` for `key` when it is the second time it was made, with its
    /// compressed forms made now, once (they count in the budget); other statuses are not kept.
    /// Returns the response as kept (or as given when not kept).
    @discardableResult
    func keep(_ response: Response, for key: String, generation: Int) -> Response {
        guard response.status == 200 else { return response }
        let hash = Shards<ShardState>.hash(key)
        let second = shards.withLock(hash) { state -> Bool in
            let slot = hash & (RenderedPages.seenSlots - 1)
            guard state.seen[slot] == hash else {
                state.seen[slot] = hash
                return false
            }
            state.seen[slot] = 0
            return true
        }
        guard second else { return response }
        // Compressed outside the lock: other pages of this shard are served meanwhile.
        let kept = BodyCompression.withForms(response, effort: .kept)
        let cost = kept.body.count + (kept.compressed?.byteCount ?? 0) + key.utf8.count + LRUByteCache<String, Response>.entryOverhead
        _ = shards.withLock(hash) { $0.cache.insert(kept, for: key, cost: cost, generation: generation) }
        return kept
    }

    /// Entries and bytes held (tests and metrics).
    var size: (entries: Int, bytes: Int) {
        var entries = 0, bytes = 0
        shards.forEach { state in
            entries += state.cache.count
            bytes += state.cache.totalCost
        }
        return (entries, bytes)
    }
}
