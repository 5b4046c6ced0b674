/// A least-recently-used map bounded by a total cost in bytes, valid for one data generation at a
/// time. Entries live in an array linked as a recency list (no per-entry allocation, O(1) lookup,
/// insert and eviction). Not thread-safe: `ShardedByteCache` holds it under a mutex per shard.
/// Caches of data without generations (photos) use the methods without one.
///
/// Everything is `@inlinable`: it is on the warm path of every page and photo, and a generic type
/// used from another module is otherwise called through witness tables, unspecialized.
public struct LRUByteCache<Key: Hashable, Value> {
    /// Bytes charged per entry on top of its body and key: dictionary slot, node, headers.
    public static var entryOverhead: Int { 256 }

    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?  // nil once evicted, so the bytes are freed before the slot is reused
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int  // index of the next more recently used node, or -1
        @usableFromInline var older: Int  // index of the next less recently used node, or -1

        @inlinable
        init(key: Key, value: Value?, cost: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.newer = newer
            self.older = older
        }
    }

    /// The byte budget.
    public let maxBytes: Int
    /// Bytes held (the sum of the entries' costs).
    @inlinable
    public var totalCost: Int { heldCost }
    @usableFromInline var heldCost = 0
    @usableFromInline var generation = Int.min
    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var nodes: [Node] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    /// An empty cache holding at most `maxBytes`.
    @inlinable
    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// Number of entries.
    @inlinable
    public var count: Int { slots.count }

    /// The value for `key` in `generation`, marking it most recently used.
    @inlinable
    public mutating func value(for key: Key, generation: Int) -> Value? {
        guard generation == self.generation, let index = slots[key] else { return nil }
        moveToNewest(index)
        return nodes[index].value
    }

    /// The value for `key`, marking it most recently used (a cache without generations).
    @inlinable
    public mutating func value(for key: Key) -> Value? {
        value(for: key, generation: generation)
    }

    /// Stores `value`; a different generation first empties the cache. An entry costing more than
    /// the whole budget is not kept. Returns the keys evicted to make room (the owner of a disk
    /// cache deletes their files).
    @inlinable @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int, generation: Int) -> [Key] {
        let (replaced, evicted) = insertEvicting(value, for: key, cost: cost, generation: generation)
        // An entry over the budget is not kept: the one it would have replaced went too.
        let removed = cost > maxBytes && replaced != nil
        return evicted.isEmpty && !removed ? [] : evicted.map(\.key) + (removed ? [key] : [])
    }

    /// `insert(_:for:cost:generation:)` returning every value that went: the one `value` replaced,
    /// those evicted to make room and those a newer generation emptied (the owner of an index into
    /// the values drops their records: the response cache, docs/caches.md).
    @inlinable
    public mutating func insertEvicting(
        _ value: Value,
        for key: Key,
        cost: Int,
        generation: Int
    ) -> (replaced: Value?, evicted: [(key: Key, value: Value)]) {
        var evicted: [(key: Key, value: Value)] = []
        var replaced: Value?
        if generation != self.generation {
            guard generation > self.generation else { return (nil, []) }  // a late render from an older snapshot
            evicted = removeAllEntries()
            self.generation = generation
        }
        guard cost <= maxBytes else {
            if let index = slots[key] { replaced = nodes[index].value }
            remove(key)
            return (replaced, evicted)
        }
        if let index = slots[key] {
            replaced = nodes[index].value
            heldCost += cost - nodes[index].cost
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
            heldCost += cost
            link(index)
        }
        while heldCost > maxBytes, oldest != -1 {
            if let old = nodes[oldest].value { evicted.append((nodes[oldest].key, old)) }
            evict(oldest)
        }
        return (replaced, evicted)
    }

    /// Empties the cache, returning what it held.
    @inlinable
    public mutating func removeAllEntries() -> [(key: Key, value: Value)] {
        var held: [(key: Key, value: Value)] = []
        held.reserveCapacity(slots.count)
        for node in nodes { if let value = node.value { held.append((node.key, value)) } }
        removeAll()
        return held
    }

    /// Stores `value` in a cache without generations (see `insert(_:for:cost:generation:)`).
    @inlinable @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
        insert(value, for: key, cost: cost, generation: max(generation, 0))
    }

    /// Removes `key`; false when it was not there.
    @inlinable @discardableResult
    public mutating func remove(_ key: Key) -> Bool {
        guard let index = slots[key] else { return false }
        evict(index)
        return true
    }

    @inlinable
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        free.removeAll(keepingCapacity: true)
        newest = -1
        oldest = -1
        heldCost = 0
    }

    @inlinable
    mutating func evict(_ index: Int) {
        unlink(index)
        slots[nodes[index].key] = nil
        heldCost -= nodes[index].cost
        nodes[index].value = nil
        free.append(index)
    }

    @inlinable
    mutating func moveToNewest(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        link(index)
    }

    /// Puts a detached node at the newest end.
    @inlinable
    mutating func link(_ index: Int) {
        nodes[index].older = newest
        nodes[index].newer = -1
        if newest != -1 { nodes[newest].newer = index }
        newest = index
        if oldest == -1 { oldest = index }
    }

    @inlinable
    mutating func unlink(_ index: Int) {
        let (newer, older) = (nodes[index].newer, nodes[index].older)
        if newer != -1 { nodes[newer].older = older } else { newest = older }
        if older != -1 { nodes[older].newer = newer } else { oldest = newer }
        nodes[index].newer = -1
        nodes[index].older = -1
    }
}
extension LRUByteCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUByteCache.Node: Sendable where Key: Sendable, Value: Sendable {}
