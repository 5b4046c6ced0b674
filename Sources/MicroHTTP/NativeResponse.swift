import CMicroHTTPD
import Foundation

/// Builds libmicrohttpd responses from `Response` values.
enum NativeResponse {
    /// Headers libmicrohttpd sets itself and refuses from the application.
    private static let reserved: Set<String> = ["content-length", "transfer-encoding", "date"]

    /// Creates an `MHD_Response` (the caller destroys it after queueing); nil when libmicrohttpd refuses.
    static func make(from response: Response) -> OpaquePointer? {
        let native: OpaquePointer?
        if let cut = response.closeAfterBodyBytes {
            native = truncatedResponse(body: response.body, cut: max(0, min(cut, response.body.count)))
        } else if response.body.count > streamedBodyThreshold {
            native = streamedResponse(body: response.body)
        } else {
            // MUST_COPY: the Swift array's storage is not guaranteed to outlive this call.
            native = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY
                )
            }
        }
        guard let native else { return nil }
        for (name, value) in response.headers where !reserved.contains(name.lowercased()) {
            // Header values with CR/LF would split the response; libmicrohttpd refuses them: skip.
            _ = MHD_add_response_header(native, name, value)
        }
        return native
    }

    /// Bodies larger than this are read from the Swift array as libmicrohttpd sends them instead of
    /// copied whole: a kept 28 MB API list answered to 64 connections at once would otherwise hold
    /// 64 copies (measured: RSS 717 MB at 50,000 items, issue 11). The array itself is shared
    /// with the kept response (copy-on-write), so a streamed answer costs no copy at all.
    static let streamedBodyThreshold = 64 * 1024

    /// A response whose body libmicrohttpd reads in blocks from `body`.
    private static func streamedResponse(body: [UInt8]) -> OpaquePointer? {
        let source = TruncatedBody(bytes: body)
        // Ownership: retained here, released by `releaseTruncatedBody` when libmicrohttpd is done.
        let pointer = Unmanaged.passRetained(source).toOpaque()
        return MHD_create_response_from_callback(UInt64(body.count), 64 * 1024, readStreamedBody, pointer, releaseTruncatedBody)
    }

    /// A response that announces `body.count` bytes but ends the connection after `cut` of them.
    private static func truncatedResponse(body: [UInt8], cut: Int) -> OpaquePointer? {
        let source = TruncatedBody(bytes: Array(body.prefix(cut)))
        // Ownership: retained here, released by `releaseTruncatedBody` when libmicrohttpd is done.
        let pointer = Unmanaged.passRetained(source).toOpaque()
        return MHD_create_response_from_callback(
            UInt64(body.count), 4096, readTruncatedBody, pointer, releaseTruncatedBody
        )
    }
}

/// The bytes a streamed or truncated response really sends.
private final class TruncatedBody {
    let bytes: [UInt8]
    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// `MHD_ContentReaderCallback`: copies from `TruncatedBody`, then reports an error to cut the connection.
private let readTruncatedBody: MHD_ContentReaderCallback = { cls, position, buffer, max in
    guard let cls, let buffer else { return -2 }
    let source = Unmanaged<TruncatedBody>.fromOpaque(cls).takeUnretainedValue()
    let start = Int(position)
    guard start < source.bytes.count else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    let count = min(max, source.bytes.count - start)
    source.bytes.withUnsafeBytes { raw in
        buffer.update(from: raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: CChar.self), count: count)
    }
    return count
}

/// `MHD_ContentReaderCallback`: copies the next block from `TruncatedBody`; ends at its end.
private let readStreamedBody: MHD_ContentReaderCallback = { cls, position, buffer, max in
    guard let cls, let buffer else { return -2 }
    let source = Unmanaged<TruncatedBody>.fromOpaque(cls).takeUnretainedValue()
    let start = Int(position)
    guard start < source.bytes.count else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    let count = min(max, source.bytes.count - start)
    source.bytes.withUnsafeBytes { raw in
        buffer.update(from: raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: CChar.self), count: count)
    }
    return count
}

/// `MHD_ContentReaderFreeCallback` balancing the retain in `truncatedResponse` and `streamedResponse`.
private let releaseTruncatedBody: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<TruncatedBody>.fromOpaque(cls).release()
}
