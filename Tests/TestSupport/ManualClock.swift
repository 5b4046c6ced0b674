import Synchronization

/// A monotonic clock that moves only when a test advances it, so TTL tests never wait on real
/// time: the app, the gateway and the kept answers all read it (`PetSpotApp.build(now:)`).
public final class ManualClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    /// A clock reading the real time of its creation until advanced.
    public init() {}

    /// The current reading.
    public var now: ContinuousClock.Instant { instant.withLock { $0 } }

    /// The reading as the closure the caches, the gateway and the app take.
    public var reading: @Sendable () -> ContinuousClock.Instant { { self.now } }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        instant.withLock { $0 += duration }
    }
}
