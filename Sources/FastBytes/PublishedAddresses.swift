import Synchronization

/// Slots that any thread reads without a lock: one word per slot, 0 until an address is published
/// there (a `FragmentArena.keepPrefixed` address: `CompactFragment.keptPrefixed(in:)`). Each page
/// read its 20 cards under 20 stripe locks, and under random-location load those locks were
/// contended (docs/performance.md "Located pages").
///
/// A slot is written with release ordering once its bytes are in the arena, and read with acquire
/// ordering, so a reader that sees an address sees the bytes behind it. Two threads that publish in
/// the same slot at once both do; either stays. The arena must outlive every address read here
/// (the owner of both holds them together).
public final class PublishedAddresses: @unchecked Sendable {
    // Safety: `words` is allocated once, never resized, and each word is only reached atomically.
    @usableFromInline let words: UnsafeMutablePointer<Atomic<Int>>
    public let count: Int

    /// `count` empty slots.
    public init(count: Int) {
        self.count = Swift.max(0, count)
        words = .allocate(capacity: Swift.max(1, count))
        for index in 0..<self.count { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    /// The address published in `slot` (0 when none yet). Inlinable: a page reads one per card.
    @inlinable @inline(__always)
    public func address(at slot: Int) -> Int {
        precondition(slot >= 0 && slot < count, "PublishedAddresses: slot out of range")
        return words[slot].load(ordering: .acquiring)
    }

    /// Publishes `address` in `slot`.
    public func publish(_ address: Int, at slot: Int) {
        precondition(slot >= 0 && slot < count, "PublishedAddresses: slot out of range")
        words[slot].store(address, ordering: .releasing)
    }
}
