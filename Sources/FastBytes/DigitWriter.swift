/// Writes ASCII text and zero-padded numbers straight into a new string's room: an HTTP date per
/// feed answer and an Atom date per entry (`HTTPDate.format`, `AtomDate.string`), where interpolating
/// the parts cost as much as the rest of the feed's head (callgrind). Writes past the room stop and
/// are dropped (the string is then cut where the room ended).
public struct DigitWriter {
    @usableFromInline let room: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var written = 0

    @usableFromInline
    init(_ room: UnsafeMutableBufferPointer<UInt8>) { self.room = room }

    /// The string `write` writes, in at most `capacity` UTF-8 bytes.
    @inlinable
    public static func string(capacity: Int, _ write: (inout DigitWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { room in
            var writer = DigitWriter(room)
            write(&writer)
            return writer.written
        }
    }

    /// Bytes written so far.
    @inlinable public var count: Int { written }

    @inlinable
    mutating func put(byte: UInt8) {
        guard written < room.count else { return }
        room[written] = byte
        written += 1
    }

    @inlinable
    public mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            for byte in bytes { put(byte: byte) }
        }
    }

    @inlinable
    public mutating func put(_ text: String) {
        for byte in text.utf8 { put(byte: byte) }
    }

    /// The low `digits` hexadecimal digits of `value`, lower case, zeros first.
    @inlinable
    public mutating func put(hex value: UInt64, digits: Int) {
        let alphabet: StaticString = "0123456789abcdef"
        alphabet.withUTF8Buffer { alphabet in
            for index in stride(from: digits - 1, through: 0, by: -1) {
                put(byte: alphabet[Int(truncatingIfNeeded: (value >> (4 * UInt64(index % 16))) & 0xF)])
            }
        }
    }

    /// `number` (not negative) in exactly `digits` digits, zeros first.
    @inlinable
    public mutating func put(_ number: Int, digits: Int) {
        guard digits > 0, digits <= room.count - written else {
            written = room.count
            return
        }
        var number = number
        for index in stride(from: written + digits - 1, through: written, by: -1) {
            room[index] = UInt8(ascii: "0") + UInt8(number % 10)
            number /= 10
        }
        written += digits
    }
}
