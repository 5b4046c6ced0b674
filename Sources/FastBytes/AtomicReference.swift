import Synchronization

/// One object, set once, read by any thread with one atomic load and no lock: a kept answer's
/// prepared representations (`ResponseCache.Entry`), read on every answer the server's hook gives.
/// A lock there would be taken by every server thread on every answer (docs/caches.md "Why sharded"
/// says what that contention cost elsewhere).
///
/// The object is retained once while stored (released when this is freed); a read hands out a
/// strong reference of its own.
public final class AtomicReference<Object: AnyObject & Sendable>: Sendable {
    private let word = Atomic<Int>(0)

    public init() {}

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) {
            Unmanaged<Object>.fromOpaque(pointer).release()
        }
    }

    /// The object stored, nil until one is.
    public var value: Object? {
        guard let pointer = UnsafeRawPointer(bitPattern: word.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Stores `made` when nothing is stored yet; returns the object stored (`made`, or the one a
    /// racing caller stored first).
    @discardableResult
    public func storeIfNil(_ made: Object) -> Object {
        let retained = Unmanaged.passRetained(made)
        let (exchanged, address) = word.compareExchange(
            expected: 0,
            desired: Int(bitPattern: retained.toOpaque()),
            ordering: .acquiringAndReleasing
        )
        guard !exchanged, let kept = UnsafeRawPointer(bitPattern: address) else { return made }
        retained.release()
        return Unmanaged<Object>.fromOpaque(kept).takeUnretainedValue()
    }
}
