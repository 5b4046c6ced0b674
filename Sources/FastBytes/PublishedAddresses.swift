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

extension PublishedAddresses {
    /// Publishes in each `to` the addresses its `from` holds at the positions `carried` names (`carried[slot]`:
    /// the slot of `from` whose piece goes to `slot` of `to`, -1 for none), all kept in `arena` by
    /// `FragmentArena.keepPrefixed`: what a new snapshot keeps of its predecessor's cards or feed entries for its
    /// unchanged items (docs/performance.md "Steady speed"). The arena the new slots should name is returned:
    /// `arena` itself, shared with the predecessor, while at least half of it is still named; else a new one
    /// with copies of the carried pieces, so the pieces of changed and removed items go with the predecessor.
    public static func carry(_ pairs: [(from: PublishedAddresses, to: PublishedAddresses)], carried: [Int32], arena: FragmentArena) -> FragmentArena {
        var live = 0
        for (from, to) in pairs {
            for slot in 0..<Swift.min(carried.count, to.count) {
                let source = Int(carried[slot])
                guard source >= 0, source < from.count else { continue }
                let address = from.address(at: source)
                guard address != 0 else { continue }
                live += FragmentArena.prefixBytes + FragmentArena.prefixed(at: address).bytes.count
                to.publish(address, at: slot)
            }
        }
        guard arena.bytes.kept > 2 * live + 16 * FragmentArena.chunkBytes else { return arena }
        let fresh = FragmentArena()
        for (_, to) in pairs {
            for slot in 0..<to.count {
                let address = to.address(at: slot)
                guard address != 0 else { continue }
                let (bytes, tag) = FragmentArena.prefixed(at: address)
                to.publish(fresh.keepPrefixed(bytes, tag: tag), at: slot)
            }
        }
        return fresh
    }
}
