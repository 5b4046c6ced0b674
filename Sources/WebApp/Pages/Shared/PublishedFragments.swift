import FastBytes

/// Kept fragments that any thread reads without a lock: the slots of `PublishedAddresses`, each the
/// address of a fragment's length-prefixed bytes in its snapshot's arena
/// (`CompactFragment.keptPrefixed(in:)`).
typealias PublishedFragments = PublishedAddresses

extension PublishedAddresses {
    /// The fragment kept at `slot`, if any.
    @inline(__always)
    func fragment(at slot: Int) -> CompactFragment? {
        let address = address(at: slot)
        return address == 0 ? nil : CompactFragment(prefixedAt: address)
    }
}
