/// A least-recently-used map bounded by a total cost in bytes, valid for one data generation at a
/// time. Entries live in an array linked as a recency list (no per-entry allocation, O(1) lookup,
/// insert and eviction). Not thread-safe: its owner (`RenderedPages`, `PhotoCache`,
/// `PhotoDiskCache`) holds it under a mutex. Caches of data without generations (photos) use the
/// methods without one.
struct LRUByteCache<Key: Hashable, Value> {
    /// Bytes charged per entry on top of its body and key: dictionary slot, node, headers.
    static var entryOverhead: Int { 256 }

    private struct Node {
        var key: Key
        var value: Value?   // nil once evicted, so the bytes are freed before the slot is reused
        var cost: Int
        var newer: Int   // index of the next more recently used node, or -1
        var older: Int   // index of the next less recently used node, or -1
    }

    let maxBytes: Int
    private(set) var totalCost = 0
    private var generation = Int.min
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// Number of entries.
    var count: Int { slots.count }

    /// The value for `key` in `generation`, marking it most recently used.
    mutating func value(for key: Key, generation: Int) -> Value? {
        guard generation == self.generation, let index = slots[key] else { return nil }
        moveToNewest(index)
        return nodes[index].value
    }

    /// The value for `key`, marking it most recently used (a cache without generations).
    mutating func value(for key: Key) -> Value? {
        value(for: key, generation: generation)
    }

    /// Stores `value`; a different generation first empties the cache. An entry costing more than
    /// the whole budget is not kept. Returns the keys evicted to make room (the owner of a disk
    /// cache deletes their files).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int, generation: Int) -> [Key] {
        if generation != self.generation {
            guard generation > self.generation else { return [] }  // a late render from an older snapshot
            removeAll()
            self.generation = generation
        }
        guard cost <= maxBytes else {
            return remove(key) ? [key] : []
        }
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
        var evicted: [Key] = []
        while totalCost > maxBytes, oldest != -1 {
            evicted.append(nodes[oldest].key)
            evict(oldest)
        }
        return evicted
    }

    /// Stores `value` in a cache without generations (see `insert(_:for:cost:generation:)`).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> [Key] {
        insert(value, for: key, cost: cost, generation: max(generation, 0))
    }

    /// Removes `key`; false when it was not there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard let index = slots[key] else { return false }
        evict(index)
        return true
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
