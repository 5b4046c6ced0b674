import Foundation
import Synchronization

/// A short-lived server-side store found by unguessable references (docs/report-flow.md): the
/// photo of a refused report, kept so the visitor never chooses it again, and each submitted
/// form's outcome, so a second submission leads to the report already made. No cookie and no
/// session: the reference travels in the form.
///
/// Entries expire after `lifetime`; the store holds at most `maxBytes` (each entry says its size)
/// and `maxEntries`, dropping expired entries first and then the oldest. It lives in this
/// process's memory only: never on disk, never in an HTTP cache.
public final class ExpiringStore<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        let bytes: Int
        let expires: ContinuousClock.Instant
        let order: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var counter = 0
    }

    private let state = Mutex(State())
    public let lifetime: Duration
    public let maxBytes: Int
    public let maxEntries: Int
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(lifetime: Duration, maxBytes: Int, maxEntries: Int, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.lifetime = lifetime
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.now = now
    }

    /// A new unguessable reference: 128 random bits from the system's generator, as 32 hex digits.
    public static func newReference() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// True when `text` has the shape of a reference (so nothing else is ever looked up or logged).
    public static func isReference(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Keeps `value` (of `bytes` bytes) under `reference`; false when it is larger than the whole store.
    @discardableResult
    public func put(_ value: Value, bytes: Int, reference: String) -> Bool {
        guard bytes <= maxBytes else { return false }
        let instant = now()
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: reference) { state.bytes -= old.bytes }
            state.counter += 1
            state.entries[reference] = Entry(value: value, bytes: bytes, expires: instant + lifetime, order: state.counter)
            state.bytes += bytes
            evict(&state, at: instant)
        }
        return true
    }

    /// The value under `reference`, or — when there is none — `make()` kept there (of `bytes`
    /// bytes), in one step: two requests with one reference at the same moment share one value.
    public func value(for reference: String, bytes: Int, orPut make: () -> Value) -> (value: Value, created: Bool) {
        let instant = now()
        return state.withLock { state in
            if let entry = state.entries[reference], entry.expires > instant { return (entry.value, false) }
            if let old = state.entries.removeValue(forKey: reference) { state.bytes -= old.bytes }
            let value = make()
            state.counter += 1
            state.entries[reference] = Entry(value: value, bytes: bytes, expires: instant + lifetime, order: state.counter)
            state.bytes += bytes
            evict(&state, at: instant)
            return (value, true)
        }
    }

    /// The value kept under `reference`, unless it expired.
    public func get(_ reference: String) -> Value? {
        let instant = now()
        return state.withLock { state in
            guard let entry = state.entries[reference] else { return nil }
            guard entry.expires > instant else {
                state.entries.removeValue(forKey: reference)
                state.bytes -= entry.bytes
                return nil
            }
            return entry.value
        }
    }

    /// Changes the value under `reference` in place (keeping its size and expiry); false when absent.
    @discardableResult
    public func update(_ reference: String, _ change: (inout Value) -> Void) -> Bool {
        state.withLock { state in
            guard var entry = state.entries[reference] else { return false }
            change(&entry.value)
            state.entries[reference] = entry
            return true
        }
    }

    /// Forgets `reference`.
    public func remove(_ reference: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: reference) { state.bytes -= old.bytes }
        }
    }

    /// Entries and bytes held (for tests and metrics).
    public var size: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }

    private func evict(_ state: inout State, at instant: ContinuousClock.Instant) {
        guard state.bytes > maxBytes || state.entries.count > maxEntries else { return }
        for (key, entry) in state.entries where entry.expires <= instant {
            state.entries.removeValue(forKey: key)
            state.bytes -= entry.bytes
        }
        while state.bytes > maxBytes || state.entries.count > maxEntries,
            let oldest = state.entries.min(by: { $0.value.order < $1.value.order })
        {
            state.entries.removeValue(forKey: oldest.key)
            state.bytes -= oldest.value.bytes
        }
    }
}
