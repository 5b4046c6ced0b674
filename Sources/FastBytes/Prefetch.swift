internal import CPrefetch

/// Asking for memory before it is read (`petspot_prefetch`), without waiting for it: a located feed
/// or page reads fifty kept fragments from arenas of tens of megabytes at 50,000 items, rarely in
/// cache; their misses then overlap the work done before they are read instead of following it.
public enum Prefetch {
    public static let lineBytes = 64

    /// Every cache line of `bytes`.
    @inline(__always)
    public static func lines(of bytes: ByteView) {
        guard bytes.start != nil else { return }
        let end = bytes.address + bytes.count
        var line = bytes.address & ~(lineBytes - 1)
        while line < end {
            petspot_prefetch(UnsafeRawPointer(bitPattern: line))
            line += lineBytes
        }
    }

    /// The line holding `address` (a number `ByteView.address` or `FragmentArena.keepPrefixed` gave).
    @inline(__always)
    public static func line(at address: Int) {
        petspot_prefetch(UnsafeRawPointer(bitPattern: address))
    }
}
