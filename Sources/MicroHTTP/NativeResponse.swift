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

/// The bytes a truncated response really sends.
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

/// `MHD_ContentReaderFreeCallback` balancing the retain in `truncatedResponse`.
private let releaseTruncatedBody: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<TruncatedBody>.fromOpaque(cls).release()
}
