import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization

/// Rendered pages (and encoded API bodies) kept for reuse (issue 11 "O(1) warm path"): a page is a
/// pure function of its normalized URL and the snapshot (product-spec §4), so the same key over the
/// same snapshot generation answers the same bytes. Bounded by bytes with least-recently-used
/// eviction, so a million distinct visitor locations cannot grow memory; a new generation empties
/// it. Stale pages (with their "saved N minutes ago" notice) are never kept.
///
/// A page is kept the second time it is made, not the first (nginx's `proxy_cache_min_uses 2`):
/// most located pages are asked for once (one visitor, one place), and keeping each of them only
/// to evict an older page cost more than rendering (issue 11, random-location load). Which keys
/// were made once is remembered in a small direct-mapped table of key hashes per shard.
///
/// Split into shards by key, each with its own lock and an equal share of the budget: every
/// request looks up here, and one lock for all server threads was measurably contended.
final class RenderedPages: Sendable {
    private struct ShardState {
        var cache: LRUByteCache<Response>
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

    /// Keeps a 200 `response` for `key` when it is the second time it was made; other statuses are not kept.
    func keep(_ response: Response, for key: String, generation: Int) {
        guard response.status == 200 else { return }
        let hash = Shards<ShardState>.hash(key)
        let cost = response.body.count + key.utf8.count + LRUByteCache<Response>.entryOverhead
        shards.withLock(hash) { state in
            let slot = hash & (RenderedPages.seenSlots - 1)
            guard state.seen[slot] == hash else {
                state.seen[slot] = hash
                return
            }
            state.seen[slot] = 0
            state.cache.insert(response, for: key, cost: cost, generation: generation)
        }
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

/// A least-recently-used map bounded by a total cost in bytes, valid for one data generation at a
/// time. Entries live in an array linked as a recency list (no per-entry allocation, O(1) lookup,
/// insert and eviction). Not thread-safe: `RenderedPages` holds it under a mutex.
struct LRUByteCache<Value> {
    /// Bytes charged per entry on top of its body and key: dictionary slot, node, headers.
    static var entryOverhead: Int { 256 }

    private struct Node {
        var key: String
        var value: Value?   // nil once evicted, so the bytes are freed before the slot is reused
        var cost: Int
        var newer: Int   // index of the next more recently used node, or -1
        var older: Int   // index of the next less recently used node, or -1
    }

    let maxBytes: Int
    private(set) var totalCost = 0
    private var generation = Int.min
    private var slots: [String: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// Number of entries.
    var count: Int { slots.count }

    /// The value for `key` in `generation`, marking it most recently used.
    mutating func value(for key: String, generation: Int) -> Value? {
        guard generation == self.generation, let index = slots[key] else { return nil }
        moveToNewest(index)
        return nodes[index].value
    }

    /// Stores `value`; a different generation first empties the cache. An entry costing more than
    /// the whole budget is not kept.
    mutating func insert(_ value: Value, for key: String, cost: Int, generation: Int) {
        if generation != self.generation {
            guard generation > self.generation else { return }  // a late render from an older snapshot
            removeAll()
            self.generation = generation
        }
        guard cost <= maxBytes else { return }
        if let index = slots[key] {
            totalCost += cost - nodes[index].cost
            nodes[index].value = value
            nodes[index].cost = cost
            moveToNewest(index)
        } else {
            let node = Node(key: key, value: value, cost: cost, newer: -1, older: -1)
            let index: Int
            if let reused = free.popLast() {
                nodes[reused] = node
                index = reused
            } else {
                nodes.append(node)
                index = nodes.count - 1
            }
            slots[key] = index
            totalCost += cost
            link(index)
        }
        while totalCost > maxBytes, oldest != -1 {
            evict(oldest)
        }
    }

    private mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        free.removeAll(keepingCapacity: true)
        newest = -1
        oldest = -1
        totalCost = 0
    }

    private mutating func evict(_ index: Int) {
        unlink(index)
        slots[nodes[index].key] = nil
        totalCost -= nodes[index].cost
        nodes[index].value = nil
        free.append(index)
    }

    private mutating func moveToNewest(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        link(index)
    }

    /// Puts a detached node at the newest end.
    private mutating func link(_ index: Int) {
        nodes[index].older = newest
        nodes[index].newer = -1
        if newest != -1 { nodes[newest].newer = index }
        newest = index
        if oldest == -1 { oldest = index }
    }

    private mutating func unlink(_ index: Int) {
        let (newer, older) = (nodes[index].newer, nodes[index].older)
        if newer != -1 { nodes[newer].older = older } else { newest = older }
        if older != -1 { nodes[older].newer = newer } else { oldest = newer }
        nodes[index].newer = -1
        nodes[index].older = -1
    }
}
