internal import CZlib

/// gzip (RFC 1952) through zlib: the `gzip` content coding every HTTP client reads.
///
/// Safety: the only C calls are zlib's on a `z_stream` that lives on the stack of one call; its
/// `next_in`/`next_out` point into arrays borrowed for exactly that call.
public enum Gzip {
    /// The bytes gzip-compressed at `level` (1 fastest … 9 smallest); nil when zlib fails.
    public static func compress(_ input: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        guard petspot_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var failed = false
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, written in
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(bound)
                // With deflateBound's room, one Z_FINISH call writes the whole stream.
                failed = deflate(&stream, Z_FINISH) != Z_STREAM_END
                written = failed ? 0 : Int(stream.total_out)
            }
        }
        return failed ? nil : output
    }

    /// The bytes of a gzip stream decompressed; nil when it is not one whole valid gzip stream or
    /// holds more than `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = 256 * 1024 * 1024) -> [UInt8]? {
        var stream = z_stream()
        guard petspot_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                // Z_BUF_ERROR with input left means no progress possible: a truncated stream.
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
