import Synchronization

/// Kept fragments that any thread reads without a lock: one word per slot, 0 until a fragment is
/// kept there, then the address of its length-prefixed bytes in an arena
/// (`CompactFragment.keptPrefixed(in:)`). Each page read its 20 cards under 20 stripe locks, and
/// under random-location load those locks were contended (docs/performance.md "Located pages").
///
/// A slot is written with release ordering once its bytes are in the arena, and read with acquire
/// ordering, so a reader that sees an address sees the bytes behind it. Two threads that make the
/// same fragment at once both publish it; either equal copy may stay. The arena must outlive every
/// address read here (the owner of both holds them together).
final class PublishedFragments: @unchecked Sendable {
    private let words: UnsafeMutablePointer<Atomic<Int>>
    let count: Int

    /// `count` empty slots.
    init(count: Int) {
        self.count = count
        words = .allocate(capacity: Swift.max(1, count))
        for index in 0..<count { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    /// The fragment kept at `slot`, if any.
    @inline(__always)
    func fragment(at slot: Int) -> CompactFragment? {
        let address = address(at: slot)
        return address == 0 ? nil : CompactFragment(prefixedAt: address)
    }

    /// The address published in `slot` (0 when none yet).
    @inline(__always)
    func address(at slot: Int) -> Int {
        words[slot].load(ordering: .acquiring)
    }

    /// Publishes the fragment kept at `address` (`CompactFragment.keptPrefixed(in:)`) in `slot`.
    func publish(_ address: Int, at slot: Int) {
        words[slot].store(address, ordering: .releasing)
    }
}
