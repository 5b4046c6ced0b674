internal import CMicroHTTPD
import Foundation
import HTTPTypes

/// A request as libmicrohttpd holds it, before any `Request` is built: the method, the target's
/// bytes and header lookups by name, read in place (no copy unless asked for). Valid only during
/// the `PreparedResponses.answer` call it is given to: the pointers it reads are libmicrohttpd's
/// and live only while the connection's handler runs (docs/transport.md "Traps").
public struct RawRequest {
    let connection: OpaquePointer
    let url: UnsafePointer<CChar>
    /// `GET` or `HEAD` (the hook is asked for nothing else).
    public let method: HTTPRequest.Method

    /// The longest target `withTarget` gives (longer ones are never looked up).
    public static let maxTargetBytes = 1024

    /// Calls `body` with the request target as it arrived, on the stack; nil (without calling it)
    /// when the target is longer than `maxTargetBytes`. The bytes are those of `Request.rawTarget`
    /// for the same request (see `RequestTarget`).
    public func withTarget<Result>(_ body: (Span<UInt8>) -> Result) -> Result? {
        withUnsafeTemporaryAllocation(byteCount: RawRequest.maxTargetBytes, alignment: 8) { buffer -> Result? in
            guard let length = RequestTarget.write(connection: connection, url: url, into: buffer) else { return nil }
            return body(UnsafeRawBufferPointer(rebasing: buffer[..<length]).assumingMemoryBound(to: UInt8.self).span)
        }
    }

    /// Calls `body` with the value of the first header field named `name` as bytes (nil when the
    /// request has no such field), without copying it.
    public func withHeader<Result>(_ name: HTTPField.Name, _ body: (Span<UInt8>?) -> Result) -> Result {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name.rawName) else { return body(nil) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
        return body(bytes.span)
    }

    /// The value of the first header field named `name`, copied; nil when absent.
    public func header(_ name: HTTPField.Name) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name.rawName).map { String(cString: $0) }
    }

    /// Queues `response` as this request's answer with `requestID` as its `X-Request-Id`: its
    /// status, or the bodiless 304 (the same headers without `Content-Type`) when `notModified`.
    /// Nil when libmicrohttpd could not make a response (then the handler answers).
    public func send(_ response: PreparedResponse, notModified: Bool, requestID: String) -> Sent? {
        let status: HTTPResponse.Status = notModified ? .notModified : response.status
        return response.queue(on: connection, status: status, notModified: notModified, requestID: requestID)
            .map { Sent(queued: $0 == .YES) }
    }

    /// Proof that `send` queued an answer: what `PreparedResponses.answer` returns to answer.
    public struct Sent {
        /// False when libmicrohttpd refused the queueing (the connection is then closed).
        let queued: Bool
    }
}

/// The request target as it arrived, as bytes: the raw path, then `?` or `&` before each raw query
/// item, `name` or `name=value` (libmicrohttpd splits the query at `&` and the first `=`, so the
/// bytes name one target). One writer for `RawRequest.withTarget` and `Request.rawTarget`, so both
/// give the same bytes for one request.
enum RequestTarget {
    /// Writes the target into `buffer`; its length, or nil when it does not fit.
    static func write(connection: OpaquePointer, url: UnsafePointer<CChar>, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        var writer = Writer(base: base.assumingMemoryBound(to: UInt8.self), capacity: buffer.count)
        writer.append(url)
        withUnsafeMutablePointer(to: &writer) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, appendQueryItem, pointer)
        }
        return writer.overflowed ? nil : writer.count
    }

    /// The target as text, at most `capacity` bytes (nil when longer). Invalid UTF-8 is repaired,
    /// as everywhere a `Request` holds the raw path.
    static func text(connection: OpaquePointer, url: UnsafePointer<CChar>, capacity: Int) -> String? {
        withUnsafeTemporaryAllocation(byteCount: max(1, capacity), alignment: 8) { buffer in
            write(connection: connection, url: url, into: buffer).map {
                String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<$0]), as: UTF8.self)
            }
        }
    }

    struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0
        var items = 0
        var overflowed = false

        mutating func append(_ text: UnsafePointer<CChar>) {
            let length = strlen(text)
            guard !overflowed, count + length <= capacity else {
                overflowed = true
                return
            }
            UnsafeMutableRawPointer(base + count).copyMemory(from: text, byteCount: length)
            count += length
        }

        mutating func append(_ byte: UInt8) {
            guard !overflowed, count < capacity else {
                overflowed = true
                return
            }
            base[count] = byte
            count += 1
        }
    }
}

/// `MHD_KeyValueIterator` appending one query item to a `RequestTarget.Writer`.
private let appendQueryItem: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let writer = cls.assumingMemoryBound(to: RequestTarget.Writer.self)
    writer.pointee.append(writer.pointee.items == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
    writer.pointee.items += 1
    writer.pointee.append(key)
    if let value {
        writer.pointee.append(UInt8(ascii: "="))
        writer.pointee.append(value)
    }
    return .YES
}
