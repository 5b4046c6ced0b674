#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that live elsewhere, read through a start and a count: a kept card or feed entry in its
/// snapshot's `FragmentArena`, an array pinned by `Array.withView`, a request's target as
/// libmicrohttpd holds it. Reading one retains nothing, which is why the fast path passes these
/// instead of arrays (docs/performance.md "Located pages": each retain of an array every thread
/// shares is an atomic write both cores contend for).
///
/// A view is valid while whatever holds its bytes lives: the arena (its owner keeps it with the
/// views, `CardSet.owner`), or the closure that pinned the array. Every read is bounds-checked, in
/// release builds too; the raw pointer never leaves this module (docs/style.md "Confine unsafe code").
@frozen
public struct ByteView: @unchecked Sendable {
    // Safety: the bytes behind a view are never written while any view of them exists (an arena's
    // bytes once kept never change; a pinned array is not mutated inside its closure), so views may
    // be read from any thread that was handed one.
    @usableFromInline let start: UnsafeRawPointer?
    public let count: Int

    @inlinable
    init(start: UnsafeRawPointer?, count: Int) {
        self.start = count == 0 ? nil : start
        self.count = start == nil ? 0 : count
    }

    /// A view of `count` (> 0) bytes at `start` (not nil): what slicing a view makes, without the checks above.
    @inlinable @inline(__always)
    init(nonEmpty start: UnsafeRawPointer, count: Int) {
        self.start = start
        self.count = count
    }

    /// A view of bytes pinned by one of this module's `withView` calls.
    @usableFromInline
    init(unsafeBytes bytes: UnsafeRawBufferPointer) {
        self.init(start: bytes.baseAddress, count: bytes.count)
    }

    /// No bytes.
    @inlinable
    public static var empty: ByteView { ByteView(start: nil, count: 0) }

    /// The byte at `offset`.
    @inlinable @inline(__always)
    public func byte(at offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "ByteView: offset out of range")
        return start.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The little-endian 32-bit number at `offset` (any alignment).
    @inlinable @inline(__always)
    public func uint32(at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= count - 4, "ByteView: offset out of range")
        return UInt32(littleEndian: start.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian 64-bit number at `offset` (any alignment).
    @inlinable @inline(__always)
    public func uint64(at offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset <= count - 8, "ByteView: offset out of range")
        return UInt64(littleEndian: start.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The eight little-endian 64-bit numbers of the 64 bytes at `offset`, with one bounds check for
    /// all of them: a hash that reads a block at a time (`EntityTag.hash`) paid 1.5 instructions a
    /// byte when each load was checked on its own (callgrind).
    @inlinable @inline(__always)
    public func block64(at offset: Int) -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        precondition(offset >= 0 && offset <= count - 64, "ByteView: offset out of range")
        let base = start.unsafelyUnwrapped + offset
        @inline(__always) func word(_ index: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
        }
        return (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
    }

    /// The little-endian signed 64-bit number at `offset` (any alignment).
    @inlinable
    public func int64(at offset: Int) -> Int64 {
        precondition(offset >= 0 && offset <= count - 8, "ByteView: offset out of range")
        return Int64(littleEndian: start.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }

    /// The bytes in `range` (offsets of this view), as a view of their own starting at 0.
    @inlinable @inline(__always)
    public func view(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteView: range out of bounds")
        guard let start, range.lowerBound < range.upperBound else { return .empty }
        return ByteView(nonEmpty: start + range.lowerBound, count: range.upperBound - range.lowerBound)
    }

    /// The bytes from `offset` to the end, as a view of their own.
    @inlinable
    public func view(from offset: Int) -> ByteView { view(offset..<count) }

    /// True when both hold the same bytes.
    @inlinable
    public func elementsEqual(_ other: ByteView) -> Bool {
        guard count == other.count else { return false }
        guard let start, let other = other.start else { return true }  // both empty
        return memcmp(start, other, count) == 0
    }

    /// True when the bytes at `offset` are `needle`'s.
    @inlinable
    public func hasBytes(_ needle: ByteView, at offset: Int) -> Bool {
        guard offset >= 0, needle.count <= count - offset else { return false }
        return view(offset..<offset + needle.count).elementsEqual(needle)
    }

    /// The bytes, copied into an array.
    public var array: [UInt8] {
        guard let start else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Feeds the bytes to `hasher` as one run (an array of bytes would hash each byte on its own).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Where the bytes start, as a number (prefetching, and tests that two views share their bytes).
    @inlinable
    public var address: Int { Int(bitPattern: start) }
}

extension ByteView: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> UInt8 { byte(at: position) }

    /// Runs `body` on the bytes as one buffer: what makes `Array.append(contentsOf:)` and
    /// `HTMLText.escape` copy runs instead of going byte by byte.
    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeRawBufferPointer(start: start, count: count).assumingMemoryBound(to: UInt8.self))
    }
}

extension Array where Element == UInt8 {
    /// Runs `body` with a view of the array's bytes, valid only inside `body`.
    @inlinable
    public func withView<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
        try withUnsafeBytes { try body(ByteView(unsafeBytes: $0)) }
    }
}

extension String {
    /// Runs `body` with a view of the string's UTF-8, valid only inside `body` (made contiguous
    /// first when it is not, as `withUTF8` does).
    @inlinable
    public func withUTF8View<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
        var text = self
        return try text.withUTF8 { try body(ByteView(unsafeBytes: UnsafeRawBufferPointer($0))) }
    }
}

extension Span where Element == UInt8 {
    /// Runs `body` with a view of the span's bytes, valid only inside `body`.
    @inlinable
    public func withView<Result>(_ body: (ByteView) throws -> Result) rethrows -> Result {
        try withUnsafeBytes { try body(ByteView(unsafeBytes: $0)) }
    }
}
