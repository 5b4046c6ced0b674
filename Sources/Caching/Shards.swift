import Synchronization

/// State split into a few parts, each under its own lock, the part picked by a number (a key's
/// hash, an item's position, the calling thread's slot). Every request reads the page cache, the
/// shells, the card fragments and the metrics; one lock for all server threads made them sleep on
/// Swift's priority-inheritance futex (docs/caches.md "Why sharded"), so each of those is split
/// the same way, here.
public final class Shards<State>: Sendable {
    @usableFromInline
    final class Part: Sendable {
        @usableFromInline let state: Mutex<State>
        @usableFromInline init(_ state: consuming sending State) { self.state = Mutex(state) }
    }

    @usableFromInline let parts: [Part]

    /// `count` parts, each starting as `make()`.
    public init(count: Int, make: () -> sending State) {
        var parts: [Part] = []
        for _ in 0..<count { parts.append(Part(make())) }
        self.parts = parts
    }

    /// The number of parts.
    @inlinable
    public var count: Int { parts.count }

    /// Runs `body` on the part that `number` picks, under its lock.
    @inlinable
    public func withLock<Result>(_ number: Int, _ body: (inout sending State) -> sending Result) -> sending Result {
        parts[Int(UInt(truncatingIfNeeded: number) % UInt(parts.count))].state.withLock(body)
    }

    /// Runs `body` on every part in turn, each under its lock (reads for metrics and tests).
    @inlinable
    public func forEach(_ body: (inout sending State) -> Void) {
        for part in parts { part.state.withLock { state in body(&state) } }
    }

    /// The hash that picks a key's part.
    @inlinable
    public static func hash(_ key: some Hashable) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return hasher.finalize()
    }
}
