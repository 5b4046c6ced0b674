import Synchronization

/// A thread-safe map whose entries end at a time of their own, bounded by a count and by a total
/// of bytes (each entry says its size). When a bound is passed, the expired entries go first,
/// then the least recently used (an entry is used when it is put, changed, or read as a value).
/// The entry just put always stays, even alone over the byte bound: a caller that must not keep
/// an entry that large checks `maxBytes` first.
///
/// An expired entry is not a value any more (`value(for:)`), but stays until a bound needs its
/// room or it is removed: a cache that serves a stale copy when its source fails, or revalidates
/// it with its ETag, reads it through `entry(for:)`. Time is read from the injected `now` only
/// (the app's one clock; a manual clock in tests), never from the system.
///
/// Entries live in an array linked as a recency list (O(1) lookup, put and eviction of the least
/// recently used); the expired ones are looked for only when a bound is passed.
public final class ExpiringMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One kept value with when it ends and its size.
    public struct Entry: Sendable {
        /// The value.
        public var value: Value
        /// The instant from which it is expired.
        public var expires: ContinuousClock.Instant
        /// Its size, counted against `maxBytes`.
        public var bytes: Int

        /// An entry of `value`, ending at `expires`, of `bytes` bytes.
        public init(value: Value, expires: ContinuousClock.Instant, bytes: Int = 0) {
            self.value = value
            self.expires = expires
            self.bytes = bytes
        }
    }

    private struct Node {
        var key: Key
        var entry: Entry?  // nil once removed, so the value is freed before the slot is reused
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [Key: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
    }

    private let state = Mutex(State())
    /// The most entries kept.
    public let maxEntries: Int
    /// The most bytes kept (the sum of the entries' `bytes`).
    public let maxBytes: Int
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// An empty map of at most `maxEntries` entries and `maxBytes` bytes, telling the time by `now`.
    public init(maxEntries: Int, maxBytes: Int = .max, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        precondition(maxEntries >= 1 && maxBytes >= 0)
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.clock = now
    }

    /// The map's clock reading: what entries' ends are compared with.
    public var now: ContinuousClock.Instant { clock() }

    /// The value of `key` unless it is absent or expired; marks it used.
    public func value(for key: Key) -> Value? {
        let instant = clock()
        return state.withLock { state -> Value? in
            guard let index = state.slots[key], let entry = state.nodes[index].entry, entry.expires > instant else { return nil }
            Self.moveToNewest(index, in: &state)
            return entry.value
        }
    }

    /// The entry of `key`, expired or not; nil when absent. Does not mark it used.
    public func entry(for key: Key) -> Entry? {
        state.withLock { state in state.slots[key].flatMap { state.nodes[$0].entry } }
    }

    /// Keeps `value` for `key` until `expires`, as the most recently used, replacing what was
    /// there; then drops entries until both bounds hold (never this one).
    public func put(_ value: Value, for key: Key, bytes: Int = 0, expires: ContinuousClock.Instant) {
        let instant = clock()
        state.withLock { state in
            Self.set(Entry(value: value, expires: expires, bytes: bytes), for: key, in: &state)
            self.evict(&state, keeping: key, at: instant)
        }
    }

    /// The unexpired value of `key`, or, when there is none, the entry `make()` returns, kept
    /// in the same step under the map's lock: two callers with one key at the same moment share
    /// one value. `created` tells which happened.
    public func value(for key: Key, orPut make: () -> Entry) -> (value: Value, created: Bool) {
        let instant = clock()
        return state.withLock { state -> (Value, Bool) in
            if let index = state.slots[key], let entry = state.nodes[index].entry, entry.expires > instant {
                Self.moveToNewest(index, in: &state)
                return (entry.value, false)
            }
            let entry = make()
            Self.set(entry, for: key, in: &state)
            self.evict(&state, keeping: key, at: instant)
            return (entry.value, true)
        }
    }

    /// Runs `body` on the entry of `key` (expired or not; nil when absent) under the map's lock, for
    /// a read-modify-write no other caller can come between: setting it to nil removes the entry,
    /// setting it keeps the entry as the most recently used (and then enforces the bounds).
    public func modify<Result: Sendable, Failure: Error>(
        _ key: Key,
        _ body: (inout Entry?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let instant = clock()
        return try state.withLock { state throws(Failure) -> Result in
            let index = state.slots[key]
            var entry = index.flatMap { state.nodes[$0].entry }
            let result = try body(&entry)
            switch (index, entry) {
            case (nil, nil): break
            case (let index?, nil): Self.remove(index, in: &state)
            case (_, let entry?):
                Self.set(entry, for: key, in: &state)
                self.evict(&state, keeping: key, at: instant)
            }
            return result
        }
    }

    /// Forgets `key`; returns the value it had (expired or not), nil when absent.
    @discardableResult
    public func remove(_ key: Key) -> Value? {
        state.withLock { state -> Value? in
            guard let index = state.slots[key] else { return nil }
            let value = state.nodes[index].entry?.value
            Self.remove(index, in: &state)
            return value
        }
    }

    /// Forgets every entry, expired or not, for which `shouldRemove` is true.
    public func removeAll(where shouldRemove: (Key, Entry) -> Bool) {
        state.withLock { state in
            for index in state.nodes.indices {
                if let entry = state.nodes[index].entry, shouldRemove(state.nodes[index].key, entry) { Self.remove(index, in: &state) }
            }
        }
    }

    /// Whether any entry, expired or not, satisfies `predicate`.
    public func contains(where predicate: (Entry) -> Bool) -> Bool {
        state.withLock { state in state.nodes.contains { $0.entry.map(predicate) ?? false } }
    }

    /// Entries (expired ones included) and bytes held (tests and metrics).
    public var size: (entries: Int, bytes: Int) {
        state.withLock { ($0.slots.count, $0.bytes) }
    }

    /// The keys from the least to the most recently used (tests: the eviction order).
    public var keysByRecency: [Key] {
        state.withLock { state in
            var keys: [Key] = []
            var index = state.oldest
            while index != -1 {
                keys.append(state.nodes[index].key)
                index = state.nodes[index].newer
            }
            return keys
        }
    }

    /// Drops the expired entries and then the least recently used until both bounds hold; `key`
    /// (the entry just set) stays.
    private func evict(_ state: inout State, keeping key: Key, at instant: ContinuousClock.Instant) {
        guard state.slots.count > maxEntries || state.bytes > maxBytes else { return }
        var index = state.oldest
        while index != -1 {
            let newer = state.nodes[index].newer
            if let entry = state.nodes[index].entry, entry.expires <= instant, state.nodes[index].key != key {
                Self.remove(index, in: &state)
            }
            index = newer
        }
        while state.slots.count > maxEntries || state.bytes > maxBytes, state.oldest != -1, state.nodes[state.oldest].key != key {
            Self.remove(state.oldest, in: &state)
        }
    }

    private static func set(_ entry: Entry, for key: Key, in state: inout State) {
        if let index = state.slots[key] {
            state.bytes += entry.bytes - (state.nodes[index].entry?.bytes ?? 0)
            state.nodes[index].entry = entry
            moveToNewest(index, in: &state)
            return
        }
        let node = Node(key: key, entry: entry)
        let index: Int
        if let reused = state.free.popLast() {
            state.nodes[reused] = node
            index = reused
        } else {
            state.nodes.append(node)
            index = state.nodes.count - 1
        }
        state.slots[key] = index
        state.bytes += entry.bytes
        link(index, in: &state)
    }

    private static func remove(_ index: Int, in state: inout State) {
        unlink(index, in: &state)
        state.slots[state.nodes[index].key] = nil
        state.bytes -= state.nodes[index].entry?.bytes ?? 0
        state.nodes[index].entry = nil
        state.free.append(index)
    }

    private static func moveToNewest(_ index: Int, in state: inout State) {
        guard index != state.newest else { return }
        unlink(index, in: &state)
        link(index, in: &state)
    }

    private static func link(_ index: Int, in state: inout State) {
        state.nodes[index].older = state.newest
        state.nodes[index].newer = -1
        if state.newest != -1 { state.nodes[state.newest].newer = index }
        state.newest = index
        if state.oldest == -1 { state.oldest = index }
    }

    private static func unlink(_ index: Int, in state: inout State) {
        let (newer, older) = (state.nodes[index].newer, state.nodes[index].older)
        if newer != -1 { state.nodes[newer].older = older } else { state.newest = older }
        if older != -1 { state.nodes[older].newer = newer } else { state.oldest = newer }
        state.nodes[index].newer = -1
        state.nodes[index].older = -1
    }
}
