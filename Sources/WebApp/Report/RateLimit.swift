import Foundation
import Synchronization

/// At most `limit` events per key within a sliding `window` (docs/report-flow.md "Abuse"):
/// accepted reports per client address, and wrong management codes per address and per
/// announcement (the upstream never limits guesses of its 6-digit codes). `limit` 0 allows all.
final class RateLimit: Sendable {
    let limit: Int
    let window: Duration
    /// Keys tracked at most; past it the keys whose events all left the window are dropped first.
    private let maxKeys: Int
    private let events = Mutex<[String: [ContinuousClock.Instant]]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    init(limit: Int, window: Duration, maxKeys: Int = 100_000, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
        self.now = now
    }

    /// Nil when another event for `key` is allowed now; else how long until one is.
    func retryAfter(_ key: String) -> Duration? {
        guard limit > 0 else { return nil }
        let instant = now()
        return events.withLock { events in
            let recent = (events[key] ?? []).filter { instant - $0 < window }
            events[key] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (instant - oldest)
        }
    }

    /// Counts one event for `key`.
    func record(_ key: String) {
        guard limit > 0 else { return }
        let instant = now()
        events.withLock { events in
            var recent = (events[key] ?? []).filter { instant - $0 < window }
            recent.append(instant)
            events[key] = recent
            if events.count > maxKeys {
                events = events.filter { $0.value.contains { instant - $0 < window } }
            }
        }
    }

    /// Whole seconds for a `Retry-After` header (at least 1).
    static func seconds(_ duration: Duration) -> Int {
        max(1, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)))
    }
}
