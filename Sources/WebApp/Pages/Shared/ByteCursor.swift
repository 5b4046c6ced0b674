/// Where a page's bytes are appended: an array, or a cursor over room made in advance (`ByteCursor`).
protocol ByteSink {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(byte: UInt8)
}

extension ByteSink {
    /// Appends `bytes`, read as bytes.
    @inline(__always)
    mutating func append(raw bytes: UnsafeRawBufferPointer) {
        append(bytes: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends the bytes of `array`.
    @inline(__always)
    mutating func append(array: [UInt8]) {
        array.withUnsafeBufferPointer { append(bytes: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    @inline(__always)
    mutating func append(byte: UInt8) { append(byte) }

    /// The bytes `write` puts through a cursor over room for `capacity` of them, made again with
    /// twice the room until they fit. A located page or feed is written this way: appending its
    /// ~600 pieces to an array checked the array's uniqueness and capacity each time, most of
    /// the cost of writing its cards (callgrind; docs/performance.md "Located pages").
    static func written(capacity: Int, _ write: (inout ByteCursor) -> Void) -> [UInt8] {
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
/// piece. Past the room it writes nothing more and says so (`overflowed`).
struct ByteCursor: ByteSink {
    private let base: UnsafeMutablePointer<UInt8>?
    private let capacity: Int
    private(set) var count = 0
    private(set) var overflowed = false

    init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        base = room.baseAddress
        capacity = room.count
    }

    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= capacity - count, let base else {
            overflowed = true
            return
        }
        guard let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        guard count < capacity, let base else {
            overflowed = true
            return
        }
        base[count] = byte
        count += 1
    }
}

extension ByteCursor {
    /// Appends `bytes`, as `+=` does on an array.
    static func += (output: inout ByteCursor, bytes: [UInt8]) {
        output.append(array: bytes)
    }
}
