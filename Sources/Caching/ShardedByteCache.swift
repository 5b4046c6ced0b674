/// A thread-safe least-recently-used cache bounded by bytes, split by key hash into shards that
/// each hold an equal share of the budget under their own lock (`Shards`), valid for one data
/// generation at a time (`LRUByteCache`). One shard is one lock and one exact LRU over the whole
/// budget; more shards let server threads look up at once without meeting at a lock, at the price
/// of an LRU per shard and no entry larger than a shard's share.
///
/// Optionally an entry is kept only the second time it is made (nginx's `proxy_cache_min_uses 2`):
/// `isSecondSighting(of:)` remembers, in a small direct-mapped table of key hashes per shard,
/// which keys were made once. Where most keys are asked for once (a visitor's own location),
/// keeping each of them only to evict an older one costs more than making it again.
///
/// The lookups are `@inlinable`: they run on every warm request, and a generic type called from
/// another module is otherwise unspecialized.
public final class ShardedByteCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Shard: Sendable {
        @usableFromInline var entries: LRUByteCache<Key, Value>
        /// Hashes of keys made once and not kept yet, by `hash & (seen.count - 1)`; empty when
        /// every entry is kept the first time.
        @usableFromInline var seen: [Int]

        @inlinable
        init(entries: LRUByteCache<Key, Value>, seen: [Int]) {
            self.entries = entries
            self.seen = seen
        }
    }

    @usableFromInline let shards: Shards<Shard>
    /// The byte budget of all shards together.
    public let maxBytes: Int

    /// Bytes charged per entry on top of its value and key by the caches that count an overhead
    /// (dictionary slot, node, headers).
    public static var entryOverhead: Int { LRUByteCache<Key, Value>.entryOverhead }

    /// A cache of at most `maxBytes` in `shardCount` shards of `maxBytes / shardCount` each.
    /// `seenSlots` (a power of two, per shard) turns on keeping on second sighting; 0 keeps on first.
    public init(maxBytes: Int, shardCount: Int, seenSlots: Int = 0) {
        precondition(shardCount >= 1 && seenSlots >= 0 && seenSlots & (seenSlots &- 1) == 0)
        self.maxBytes = maxBytes
        shards = Shards(count: shardCount) {
            Shard(entries: LRUByteCache(maxBytes: maxBytes / shardCount), seen: Array(repeating: 0, count: seenSlots))
        }
    }

    /// The number of shards.
    public var shardCount: Int { shards.count }

    /// The shard number of `key` (no hashing with one shard: a photo lookup pays nothing for it).
    @inlinable
    func shard(of key: Key) -> Int {
        shards.count == 1 ? 0 : Shards<Shard>.hash(key)
    }

    /// The value kept for `key` from data `generation`, now the most recently used of its shard.
    @inlinable
    public func value(for key: Key, generation: Int) -> Value? {
        shards.withLock(shard(of: key)) { $0.entries.value(for: key, generation: generation) }
    }

    /// The value kept for `key` in a cache without generations.
    @inlinable
    public func value(for key: Key) -> Value? {
        shards.withLock(shard(of: key)) { $0.entries.value(for: key) }
    }

    /// Keeps `value` for `key` at `cost` bytes; a newer `generation` first empties the key's shard
    /// (an older one is ignored: a late answer made from older data). Returns the keys evicted to
    /// make room (a disk cache deletes their files); an entry over the shard's share is not kept.
    @discardableResult
    public func insert(_ value: Value, for key: Key, cost: Int, generation: Int) -> [Key] {
        shards.withLock(shard(of: key)) { $0.entries.insert(value, for: key, cost: cost, generation: generation) }
    }

    /// `insert(_:for:cost:generation:)` returning the values that went (`LRUByteCache.insertEvicting`):
    /// the one `value` replaced, those evicted to make room and those a newer generation emptied.
    public func insertEvicting(
        _ value: Value,
        for key: Key,
        cost: Int,
        generation: Int
    ) -> (replaced: Value?, evicted: [(key: Key, value: Value)]) {
        shards.withLock(shard(of: key)) { $0.entries.insertEvicting(value, for: key, cost: cost, generation: generation) }
    }

    /// `insertEvicting` in the key's shard's current generation (an entry found by other means
    /// than its key, which goes with the shard's other entries when a newer generation comes).
    public func insertEvicting(_ value: Value, for key: Key, cost: Int) -> (replaced: Value?, evicted: [(key: Key, value: Value)]) {
        shards.withLock(shard(of: key)) { $0.entries.insertEvicting(value, for: key, cost: cost, generation: max($0.entries.generation, 0)) }
    }

    /// Empties every shard, returning the values it held.
    public func removeAll() -> [Value] {
        var held: [Value] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        shards.forEach { shard in held += shard.entries.removeAllEntries().map(\.value) }
        return held
    }

    /// Keeps `value` in a cache without generations (see `insert(_:for:cost:generation:)`).
    @discardableResult
    public func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
        shards.withLock(shard(of: key)) { $0.entries.insert(value, for: key, cost: cost) }
    }

    /// Forgets `key`; false when it was not kept.
    @discardableResult
    public func remove(_ key: Key) -> Bool {
        shards.withLock(shard(of: key)) { $0.entries.remove(key) }
    }

    /// Notes that `key` was made: true the second time in a row its table slot sees it (it may be
    /// kept now), false the first time. Always true without `seenSlots`.
    public func isSecondSighting(of key: Key) -> Bool {
        let hash = Shards<Shard>.hash(key)
        return shards.withLock(shards.count == 1 ? 0 : hash) { shard -> Bool in
            guard !shard.seen.isEmpty else { return true }
            let slot = hash & (shard.seen.count - 1)
            guard shard.seen[slot] == hash else {
                shard.seen[slot] = hash
                return false
            }
            shard.seen[slot] = 0
            return true
        }
    }

    /// Entries and bytes held by each shard (tests: every shard stays within its share).
    public var shardSizes: [(entries: Int, bytes: Int)] {
        var sizes: [(entries: Int, bytes: Int)] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        shards.forEach { shard in sizes.append((shard.entries.count, shard.entries.totalCost)) }
        return sizes
    }

    /// Entries and bytes held over all shards (tests and metrics).
    public var size: (entries: Int, bytes: Int) {
        var entries = 0
        var bytes = 0
        // swift-format-ignore: ReplaceForEachWithForLoop
        // `Shards.forEach` visits each shard under its lock; it is not a sequence.
        shards.forEach { shard in
            entries += shard.entries.count
            bytes += shard.entries.totalCost
        }
        return (entries, bytes)
    }
}
