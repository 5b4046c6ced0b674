import Synchronization

/// Where the kept cards and feed entries of one snapshot live: their bytes copied one after another
/// into large chunks, freed all at once with the snapshot's cards or entries (`CardFragments`,
/// `FeedEntries`). A fragment kept here is a pointer and a length: reading it from a kept array
/// retains nothing. With one array per fragment, each page retained every card it showed under its
/// stripe's lock, and each retain waited for its card's cache line in turn (docs/performance.md
/// "Located pages"); fifty thousand small arrays also spread the heap (docs/performance.md "Memory").
///
/// A pointer into the arena is valid while the arena lives: whoever reads a kept fragment holds the
/// arena (`CardSet.owner`, `FeedEntries.fragments`). Bytes once kept never move or change, so any
/// thread may read them once it has the pointer from under the lock that published it.
final class FragmentArena: @unchecked Sendable {
    /// Bytes per chunk: large enough that the chunk's unused tail is a small share, small enough to
    /// stay below the mmap threshold (`ProcessMemory`), so a chunk is one ordinary allocation.
    static let chunkBytes = 64 * 1024

    private struct State {
        var chunks: [UnsafeMutableRawPointer] = []
        /// Bytes used in the last chunk.
        var used = chunkBytes
        /// Bytes of all chunks, and bytes kept in them.
        var reserved = 0
        var kept = 0
    }

    private let state = Mutex(State())

    init() {}

    deinit {
        state.withLock { state in
            for chunk in state.chunks { chunk.deallocate() }
        }
    }

    /// A copy of `bytes` in the arena.
    func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let size = bytes.count
        // The place is found under the lock and passed out as an address (a pointer is not Sendable);
        // the copy needs no lock: nobody else is given that place.
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
        // Never 0: it is the address just allocated or reserved above.
        guard let base = UnsafeMutableRawPointer(bitPattern: address) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        base.copyMemory(from: source, byteCount: size)
        return UnsafeRawBufferPointer(start: base, count: size)
    }

    /// A copy of `bytes` after their length and `tag` (a number kept with them, e.g. a feed entry's
    /// date), as an address (`prefixed(at:)` reads it back): one word that a reader can load
    /// atomically (`PublishedFragments`).
    func keepPrefixed(_ bytes: UnsafeRawBufferPointer, tag: Int64 = 0) -> Int {
        let header = FragmentArena.prefixBytes
        var prefixed = [UInt8](repeating: 0, count: header + bytes.count)
        prefixed.withUnsafeMutableBytes { buffer in
            buffer.storeBytes(of: bytes.count, as: Int.self)
            buffer.storeBytes(of: tag, toByteOffset: MemoryLayout<Int>.size, as: Int64.self)
            if let source = bytes.baseAddress, let target = buffer.baseAddress, !bytes.isEmpty {
                (target + header).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        let kept = prefixed.withUnsafeBytes { keep($0) }
        return Int(bitPattern: kept.baseAddress)
    }

    private static let prefixBytes = MemoryLayout<Int>.size + MemoryLayout<Int64>.size

    /// The bytes and tag `keepPrefixed` kept at `address`.
    static func prefixed(at address: Int) -> (bytes: UnsafeRawBufferPointer, tag: Int64) {
        guard let base = UnsafeRawPointer(bitPattern: address) else { return (UnsafeRawBufferPointer(start: nil, count: 0), 0) }
        let count = base.loadUnaligned(as: Int.self)
        let tag = base.loadUnaligned(fromByteOffset: MemoryLayout<Int>.size, as: Int64.self)
        return (UnsafeRawBufferPointer(start: base + prefixBytes, count: count), tag)
    }

    /// Bytes of the arena's chunks and bytes kept in them (`/metrics`, tests).
    var bytes: (reserved: Int, kept: Int) { state.withLock { ($0.reserved, $0.kept) } }
}
