internal import CBrotli

/// Brotli (RFC 7932) through Debian's libbrotli: the `br` content coding, smaller than gzip on
/// text at the same decoding cost.
///
/// Safety: the encoder is called once with arrays borrowed for that call; the decoder state is
/// created and destroyed within one call.
public enum Brotli {
    /// The bytes compressed at `quality` (0 fastest … 11 smallest) with a window of `2^windowBits`
    /// bytes (10 … 24; larger windows find repeats further back in big bodies, and every decoder
    /// must accept up to 24); nil when the encoder fails.
    public static func compress(_ input: [UInt8], quality: Int32, windowBits: Int32 = 22) -> [UInt8]? {
        let bound = BrotliEncoderMaxCompressedSize(input.count)
        guard bound > 0 else { return nil }
        var ok = false
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, written in
            var size = bound
            ok = input.withUnsafeBufferPointer { source in
                BrotliEncoderCompress(
                    quality,
                    min(max(windowBits, 10), 24),
                    BROTLI_MODE_TEXT,
                    source.count,
                    source.baseAddress,
                    &size,
                    buffer.baseAddress
                ) == BROTLI_TRUE
            }
            written = ok ? size : 0
        }
        return ok ? CompressedBytes.fitted(output) : nil
    }

    /// The bytes of a Brotli stream decompressed; nil when it is not one whole valid stream or
    /// holds more than `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = 256 * 1024 * 1024) -> [UInt8]? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            var availableIn = source.count
            var nextIn = source.baseAddress
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (BrotliDecoderResult, Int) in
                    var availableOut = buffer.count
                    var nextOut = buffer.baseAddress
                    let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return (result, buffer.count - availableOut)
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return availableIn == 0 ? output : nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return nil  // an error, or input ended before the stream did
                }
            }
        }
    }
}
