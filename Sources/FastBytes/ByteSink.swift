/// Where a page's bytes are appended: an array, or a cursor over room made in advance (`ByteCursor`).
public protocol ByteSink {
    mutating func append(bytes: ByteView)
    mutating func append(byte: UInt8)
}

extension ByteSink {
    /// Appends the bytes of `array`.
    @inlinable
    public mutating func append(array: [UInt8]) {
        array.withView { append(bytes: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    public mutating func append(bytes: ByteView) { append(contentsOf: bytes) }

    @inlinable
    public mutating func append(byte: UInt8) { append(byte) }

    /// The bytes `write` puts through a cursor over room for `capacity` of them, made again with
    /// twice the room until they fit. A located page or feed is written this way: appending its
    /// ~600 pieces to an array checked the array's uniqueness and capacity each time, most of
    /// the cost of writing its cards (callgrind; docs/performance.md "Located pages").
    @inlinable
    public static func written(capacity: Int, _ write: (inout ByteCursor) -> Void) -> [UInt8] {
        var room = Swift.max(capacity, 64)
        while true {
            var fits = true
            let bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
                var cursor = ByteCursor(buffer)
                write(&cursor)
                fits = !cursor.overflowed
                initialized = fits ? cursor.count : 0
            }
            if fits { return bytes }
            room *= 2
        }
    }
}

/// Appends into room made in advance (`Array.written(capacity:_:)`): a bounds check and a copy per
/// piece. Past the room it writes nothing more and says so (`overflowed`). It exists only inside
/// `written`'s closure, which owns the room.
public struct ByteCursor: ByteSink {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>?
    @usableFromInline let capacity: Int
    @usableFromInline var written = 0
    @usableFromInline var full = false

    @inlinable
    init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        base = room.baseAddress
        capacity = room.count
    }

    /// Bytes appended so far.
    @inlinable public var count: Int { written }

    /// True once an append did not fit (the bytes are then incomplete).
    @inlinable public var overflowed: Bool { full }

    @inlinable
    public mutating func append(bytes: ByteView) {
        guard bytes.count <= capacity - written, let base else {
            full = true
            return
        }
        guard let source = bytes.start else { return }
        UnsafeMutableRawPointer(base + written).copyMemory(from: source, byteCount: bytes.count)
        written += bytes.count
    }

    @inlinable
    public mutating func append(byte: UInt8) {
        guard written < capacity, let base else {
            full = true
            return
        }
        base[written] = byte
        written += 1
    }

    /// Appends `bytes`, as `+=` does on an array.
    @inlinable
    public static func += (output: inout ByteCursor, bytes: [UInt8]) {
        output.append(array: bytes)
    }
}
