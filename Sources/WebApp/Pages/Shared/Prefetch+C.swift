internal import CPrefetch

/// Asking for memory before it is read (`petspot_prefetch`), without waiting for it: a located feed
/// or page reads fifty kept fragments from arenas of tens of megabytes at 50,000 items, rarely in
/// cache; their misses then overlap the work done before they are read instead of following it.
enum Prefetch {
    static let lineBytes = 64

    /// Every cache line of `bytes`.
    @inline(__always)
    static func lines(of bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let end = Int(bitPattern: base) + bytes.count
        var line = Int(bitPattern: base) & ~(lineBytes - 1)
        while line < end {
            petspot_prefetch(UnsafeRawPointer(bitPattern: line))
            line += lineBytes
        }
    }

    /// The line holding `address`.
    @inline(__always)
    static func line(at address: Int) {
        petspot_prefetch(UnsafeRawPointer(bitPattern: address))
    }
}
