import Caching
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
/// were made once is remembered in a small direct-mapped table of key hashes per shard
/// (`ShardedByteCache.isSecondSighting`).
///
/// Split into shards by key, each with its own lock and an equal share of the budget: every
/// request looks up here, and one lock for all server threads was measurably contended.
final class RenderedPages: Sendable {
    /// Each page with its compressed forms beside its plain bytes.
    private let pages: ShardedByteCache<String, Reply>
    /// The byte budget.
    var maxBytes: Int { pages.maxBytes }

    /// Keeps pages whose bodies (plus key and a fixed overhead per entry) add up to at most `maxBytes`.
    init(maxBytes: Int) {
        pages = ShardedByteCache(
            maxBytes: maxBytes,
            shardCount: CacheLimits.renderedPageShards,
            seenSlots: CacheLimits.renderedPageSeenSlots
        )
    }

    /// The page kept for `key` from snapshot `generation`, if any.
    func cached(_ key: String, generation: Int) -> Reply? {
        pages.value(for: key, generation: generation)
    }

    /// Keeps a 200 `response` for `key` when it is the second time it was made, with its
    /// compressed forms made now, once (they count in the budget); other statuses are not kept.
    /// Returns the page as kept, with its forms; nil when it was not kept.
    @discardableResult
    func keep(_ response: Response, for key: String, generation: Int) -> Reply? {
        guard response.status == 200, pages.isSecondSighting(of: key) else { return nil }
        // Compressed outside the lock: other pages of this shard are served meanwhile.
        let kept = Reply(response, forms: BodyCompression.forms(of: response, level: BodyCompression.policy.kept))
        let cost = response.body.count + (kept.forms?.byteCount ?? 0) + key.utf8.count + ShardedByteCache<String, Reply>.entryOverhead
        pages.insert(kept, for: key, cost: cost, generation: generation)
        return kept
    }

    /// Entries and bytes held (tests and metrics).
    var size: (entries: Int, bytes: Int) { pages.size }
}
