import Synchronization

/// Where the kept cards and feed entries of one snapshot live: their bytes copied one after another
/// into large chunks, freed all at once with the snapshot's cards or entries (`CardFragments`,
/// `FeedEntries`). A fragment kept here is a `ByteView`: reading it from a kept array retains
/// nothing. With one array per fragment, each page retained every card it showed under its
/// stripe's lock, and each retain waited for its card's cache line in turn (docs/performance.md
/// "Located pages"); fifty thousand small arrays also spread the heap (docs/performance.md "Memory").
///
/// A view into the arena is valid while the arena lives: whoever reads a kept fragment holds the
/// arena (`CardSet.owner`, `FeedEntries.fragments`). Bytes once kept never move or change, so any
/// thread may read them once it has the view from under the lock (or the atomic word) that published it.
public final class FragmentArena: @unchecked Sendable {
    // Safety: the chunk list is only touched under `state`'s lock; the bytes of a place handed out
    // are written once, by the one caller given that place, before its view is returned.

    /// Bytes per chunk: large enough that the chunk's unused tail is a small share, small enough to
    /// stay below the mmap threshold (`ProcessMemory`), so a chunk is one ordinary allocation.
    public static let chunkBytes = 64 * 1024

    private struct State {
        var chunks: [UnsafeMutableRawPointer] = []
        /// Bytes used in the last chunk.
        var used = chunkBytes
        /// Bytes of all chunks, and bytes kept in them.
        var reserved = 0
        var kept = 0
    }

    private let state = Mutex(State())

    public init() {}

    deinit {
        state.withLock { state in
            for chunk in state.chunks { chunk.deallocate() }
        }
    }

    /// A place for `size` (> 0) bytes of the caller's own, as an address (a pointer is not Sendable,
    /// so it leaves the lock as a number); nobody else is given that place, so filling it needs no lock.
    private func reserve(_ size: Int) -> UnsafeMutableRawPointer {
        let address: Int = state.withLock { state in
            let base: UnsafeMutableRawPointer
            if size > FragmentArena.chunkBytes / 4 {
                // A large fragment gets a chunk of its own (kept before the current one stays in use).
                base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                state.chunks.insert(base, at: max(0, state.chunks.count - 1))
                state.reserved += size
            } else {
                if state.used + size > FragmentArena.chunkBytes {
                    state.chunks.append(UnsafeMutableRawPointer.allocate(byteCount: FragmentArena.chunkBytes, alignment: 16))
                    state.used = 0
                    state.reserved += FragmentArena.chunkBytes
                }
                base = state.chunks[state.chunks.count - 1] + state.used
                state.used += size
            }
            state.kept += size
            return Int(bitPattern: base)
        }
        // The address was made from a pointer just allocated or reserved above, never 0.
        return UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped
    }

    /// A copy of `bytes` in the arena.
    public func keep(_ bytes: ByteView) -> ByteView {
        guard let source = bytes.start else { return .empty }
        let place = reserve(bytes.count)
        place.copyMemory(from: source, byteCount: bytes.count)
        return ByteView(start: place, count: bytes.count)
    }

    /// A copy of `bytes` after their length and `tag` (a number kept with them, e.g. a feed entry's
    /// hash), as an address (`prefixed(at:)` reads it back): one word that a reader can load
    /// atomically (`PublishedAddresses`). Never 0.
    public func keepPrefixed(_ bytes: ByteView, tag: Int64 = 0) -> Int {
        let place = reserve(FragmentArena.prefixBytes + bytes.count)
        place.storeBytes(of: bytes.count, as: Int.self)
        place.storeBytes(of: tag, toByteOffset: MemoryLayout<Int>.size, as: Int64.self)
        if let source = bytes.start {
            (place + FragmentArena.prefixBytes).copyMemory(from: source, byteCount: bytes.count)
        }
        return Int(bitPattern: place)
    }

    /// Bytes before a prefixed piece's own: its length and tag.
    public static let prefixBytes = MemoryLayout<Int>.size + MemoryLayout<Int64>.size

    /// The bytes and tag `keepPrefixed` kept at `address` (0: none), valid while that arena lives.
    /// Inlinable: a page reads one per card.
    @inlinable
    public static func prefixed(at address: Int) -> (bytes: ByteView, tag: Int64) {
        guard let base = UnsafeRawPointer(bitPattern: address) else { return (.empty, 0) }
        let count = base.loadUnaligned(as: Int.self)
        let tag = base.loadUnaligned(fromByteOffset: MemoryLayout<Int>.size, as: Int64.self)
        return (ByteView(start: base + prefixBytes, count: count), tag)
    }

    /// Bytes of the arena's chunks and bytes kept in them (`/metrics`, tests).
    public var bytes: (reserved: Int, kept: Int) { state.withLock { ($0.reserved, $0.kept) } }
}
