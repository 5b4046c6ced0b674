import Synchronization

/// State split into a few parts, each under its own lock, the part picked by a number (a key's
/// hash, an item's position, the calling thread's `ThreadSpread` slot). Every request reads
/// the page cache, the shells, the card fragments and the metrics; one lock for all server threads
/// made them sleep on Swift's priority-inheritance futex (docs/performance.md), so each of those is split
/// the same way, here.
final class Shards<State>: Sendable {
    private final class Part: Sendable {
        let state: Mutex<State>
        init(_ state: consuming sending State) { self.state = Mutex(state) }
    }

    private let parts: [Part]

    /// `count` parts, each starting as `make()`.
    init(count: Int, make: () -> sending State) {
        var parts: [Part] = []
        for _ in 0..<count { parts.append(Part(make())) }
        self.parts = parts
    }

    /// The number of parts.
    var count: Int { parts.count }

    /// Runs `body` on the part that `number` picks, under its lock.
    func withLock<Result>(_ number: Int, _ body: (inout sending State) -> sending Result) -> sending Result {
        parts[Int(UInt(bitPattern: number) % UInt(parts.count))].state.withLock(body)
    }

    /// Runs `body` on every part in turn, each under its lock (reads for metrics and tests).
    func forEach(_ body: (inout sending State) -> Void) {
        for part in parts { part.state.withLock { state in body(&state) } }
    }

    /// The hash that picks a string key's part.
    static func hash(_ key: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return hasher.finalize()
    }
}
