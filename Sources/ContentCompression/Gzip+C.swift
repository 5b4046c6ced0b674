internal import CZlib

#if canImport(Glibc)
import Glibc
#endif

/// gzip (RFC 1952) through zlib: the `gzip` content coding every HTTP client reads.
///
/// Safety: zlib keeps a pointer back to its `z_stream` and refuses a stream that moved, so each
/// stream lives in memory allocated here (never a Swift variable passed `&`), from `deflateInit2`
/// to `deflateEnd`; its `next_in`/`next_out` point into arrays borrowed for exactly one call.
public enum Gzip {
    /// The bytes gzip-compressed at `level` (1 fastest … 9 smallest); nil when zlib fails.
    public static func compress(_ input: [UInt8], level: Int32) -> [UInt8]? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard petspot_deflate_init_gzip(stream, level) == Z_OK else { return nil }
        defer { deflateEnd(stream) }
        return deflateWhole(input, stream: stream)
    }

    /// The bytes gzip-compressed at level 1 with this thread's own stream, reset for each body:
    /// a stream made per body cost more than the compression itself on a 14 KB page (zlib
    /// allocates and clears about 256 KB of state; glibc gives it back to the system and takes
    /// it again, page faults included, at every request).
    public static func compressFast(_ input: [UInt8]) -> [UInt8]? {
        guard let stream = FastDeflater.current?.stream, deflateReset(stream) == Z_OK else { return compress(input, level: 1) }
        return deflateWhole(input, stream: stream)
    }

    /// One `Z_FINISH` call with `deflateBound`'s room: the whole stream in one go.
    private static func deflateWhole(_ input: [UInt8], stream: UnsafeMutablePointer<z_stream>) -> [UInt8]? {
        let bound = Int(deflateBound(stream, uLong(input.count)))
        var failed = false
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, written in
            input.withUnsafeBufferPointer { source in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(bound)
                failed = deflate(stream, Z_FINISH) != Z_STREAM_END
                written = failed ? 0 : Int(stream.pointee.total_out)
            }
        }
        return failed ? nil : CompressedBytes.fitted(output)
    }

    /// The bytes of a gzip stream decompressed; nil when it is not one whole valid gzip stream or
    /// holds more than `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = 256 * 1024 * 1024) -> [UInt8]? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard petspot_inflate_init_gzip(stream) == Z_OK else { return nil }
        defer { inflateEnd(stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(buffer.count)
                    let status = inflate(stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                if status == Z_STREAM_END { return stream.pointee.avail_in == 0 ? output : nil }
                // Z_BUF_ERROR with input left means no progress possible: a truncated stream.
                guard status == Z_OK, produced > 0 || stream.pointee.avail_in > 0 else { return nil }
            }
        }
    }
}

/// A level-1 gzip stream owned by one thread for its whole life (freed by the thread-specific
/// key's destructor when the thread ends).
private final class FastDeflater {
    let stream: UnsafeMutablePointer<z_stream>

    private init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard petspot_deflate_init_gzip(stream, 1) == Z_OK else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Ownership: the thread's value holds one retain, released here when the thread ends.
        precondition(
            pthread_key_create(&key) { raw in if let raw { Unmanaged<FastDeflater>.fromOpaque(raw).release() } } == 0,
            "pthread_key_create failed"
        )
        return key
    }()

    /// The calling thread's stream, made on its first use; nil when zlib could not make one.
    static var current: FastDeflater? {
        if let stored = pthread_getspecific(key) { return Unmanaged<FastDeflater>.fromOpaque(stored).takeUnretainedValue() }
        guard let made = FastDeflater() else { return nil }
        _ = pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}

/// What both encoders share about their output.
enum CompressedBytes {
    /// `bytes` in an array of their own size. An encoder writes into room for the worst case (about
    /// the input's size) and the array keeps that capacity: a kept 3 MB br form of the 28 MB API
    /// list held 28 MB (docs/performance.md "Memory"). Copied when more than an eighth is unused.
    static func fitted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity - bytes.count > bytes.capacity / 8 else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, written in
            written = buffer.initialize(fromContentsOf: bytes)
        }
    }
}
