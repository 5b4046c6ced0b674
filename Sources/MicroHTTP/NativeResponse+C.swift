internal import CMicroHTTPD
import Foundation
import HTTPTypes

/// Builds libmicrohttpd responses from `Response` values.
enum NativeResponse {
    /// True for a header libmicrohttpd sets itself and refuses from the application
    /// (`HTTPField.Name` compares canonical, lower-cased names: no copy per comparison).
    static func isReserved(_ name: HTTPField.Name) -> Bool {
        // By length first: most names match none of the three lengths, and a native string's
        // length is one load where each comparison was a call (callgrind: 36 per page).
        switch name.canonicalName.utf8.count {
        case 4: name == .date
        case 14: name == .contentLength
        case 17: name == .transferEncoding
        default: false
        }
    }

    /// Creates an `MHD_Response` (the caller destroys it after queueing); nil when libmicrohttpd refuses.
    static func make(from response: Response) -> OpaquePointer? {
        let native: OpaquePointer?
        if let cut = response.closeAfterBodyBytes {
            native = truncatedResponse(body: response.body, cut: max(0, min(cut, response.body.count)))
        } else if response.body.count > streamedBodyThreshold {
            native = streamedResponse(body: response.body)
        } else if response.body.isEmpty {
            native = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        } else {
            native = sharedResponse(body: response.body)
        }
        guard let native else { return nil }
        for field in response.headers where !isReserved(field.name) {
            // `HTTPField` values never hold CR, LF or NUL (swift-http-types turns them into spaces),
            // so no value can split the response. withCString lends a native string's own bytes.
            _ = field.name.rawName.withCString { name in field.value.withCString { value in MHD_add_response_header(native, name, value) } }
        }
        return native
    }

    /// Bodies larger than this are read from the Swift array as libmicrohttpd sends them instead of
    /// copied whole: a kept 28 MB API list answered to 64 connections at once would otherwise hold
    /// 64 copies (measured: RSS 717 MB at 50,000 items). The array itself is shared
    /// with the kept response (copy-on-write), so a streamed answer costs no copy at all.
    static let streamedBodyThreshold = 64 * 1024

    /// A response that sends `body` from the array's own storage, without a copy: the storage is
    /// retained by a `BodySource` until libmicrohttpd frees the response.
    ///
    /// Safety: a native Swift array keeps its elements in one heap buffer that does not move while
    /// it is alive; the `BodySource` holds an immutable copy of the array value (so that buffer
    /// stays alive and is never written: any write would copy it first), which makes the address
    /// read here valid until `releaseBodySource` runs. A copy per response (a 20 KB page, a
    /// malloc and a free that consolidates the heap) was a measurable part of every page.
    private static func sharedResponse(body: [UInt8]) -> OpaquePointer? {
        let source = BodySource(bytes: body, endsWithError: false)
        let pointer = Unmanaged.passRetained(source).toOpaque()
        let base = source.bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let native = MHD_create_response_from_buffer_with_free_callback_cls(source.bytes.count, base, releaseBodySource, pointer)
        if native == nil { Unmanaged<BodySource>.fromOpaque(pointer).release() }
        return native
    }

    /// A response whose body libmicrohttpd reads in blocks from `body`.
    private static func streamedResponse(body: [UInt8]) -> OpaquePointer? {
        callbackResponse(announcing: body.count, source: BodySource(bytes: body, endsWithError: false), blockSize: 64 * 1024)
    }

    /// A response that announces `body.count` bytes but ends the connection after `cut` of them.
    private static func truncatedResponse(body: [UInt8], cut: Int) -> OpaquePointer? {
        callbackResponse(announcing: body.count, source: BodySource(bytes: Array(body.prefix(cut)), endsWithError: true), blockSize: 4096)
    }

    private static func callbackResponse(announcing size: Int, source: BodySource, blockSize: Int) -> OpaquePointer? {
        // Ownership: retained here, released by `releaseBodySource` when libmicrohttpd is done.
        let pointer = Unmanaged.passRetained(source).toOpaque()
        return MHD_create_response_from_callback(UInt64(size), blockSize, readBodySource, pointer, releaseBodySource)
    }
}

/// The bytes a streamed or truncated response really sends, and how it ends after them.
private final class BodySource {
    let bytes: [UInt8]
    /// True for a truncated response: after `bytes`, the connection is cut.
    let endsWithError: Bool
    init(bytes: [UInt8], endsWithError: Bool) {
        self.bytes = bytes
        self.endsWithError = endsWithError
    }
}

/// `MHD_ContentReaderCallback`: copies the next block from `BodySource`; at its end, the end of
/// the stream or (truncated) an error that cuts the connection.
private let readBodySource: MHD_ContentReaderCallback = { cls, position, buffer, max in
    guard let cls, let buffer else { return -2 }
    let source = Unmanaged<BodySource>.fromOpaque(cls).takeUnretainedValue()
    let start = Int(position)
    // MHD_CONTENT_READER_END_WITH_ERROR (-2) or MHD_CONTENT_READER_END_OF_STREAM (-1).
    guard start < source.bytes.count else { return source.endsWithError ? -2 : -1 }
    let count = min(max, source.bytes.count - start)
    source.bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }  // not empty: `start` is inside it
        buffer.update(from: base.advanced(by: start).assumingMemoryBound(to: CChar.self), count: count)
    }
    return count
}

/// `MHD_ContentReaderFreeCallback` balancing the retain in `callbackResponse`.
private let releaseBodySource: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<BodySource>.fromOpaque(cls).release()
}
