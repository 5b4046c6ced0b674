internal import CMicroHTTPD
import Foundation

@testable import MicroHTTP

/// Request bodies (`MicroHTTP/BodyReader+C.swift`) through libmicrohttpd's own post processor: each
/// input is the body of a `multipart/form-data` POST (boundary `pb`) sent over loopback to a
/// libmicrohttpd daemon in this process, whose access handler reads it with `BodyReader` exactly as
/// the server does. The post processor needs a live connection, so the daemon is real. (A boundary
/// of one character is not one libmicrohttpd 0.9.75 parses: every such form is refused, 400.)
///
/// Invariants: every request is answered (200 for a form read whole, 400 for one the processor
/// could not finish, 413 past the limits); a form read whole never holds more text than its limit,
/// each file's `byteCount` is the size of its temporary file, and every temporary file is gone once
/// the request completes.
enum MultipartTarget {
    /// Limits small enough for the fuzzer to cross them.
    static let limits = BodyLimits(maxBytes: 64 * 1024, maxFieldBytes: 2048, deadline: .seconds(5))
    /// The daemon's port (started on first use, for the life of the process).
    static let port: UInt16 = startDaemon()

    static func run(_ bytes: [UInt8]) {
        let head =
            "POST /upload HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n"
            + "Content-Type: multipart/form-data; boundary=pb\r\nContent-Length: \(bytes.count)\r\n\r\n"
        // A connection closed with no answer at all is retried (five tries, 50 ms apart): thousands of
        // short connections a second can meet the daemon's connection limit while it still cleans up
        // closed ones, which then closes the new one at once. An answer, once there, must be right.
        var reply = ""
        for attempt in 0..<5 where reply.isEmpty {
            if attempt > 0 { usleep(50_000) }
            reply = exchange(Array(head.utf8) + bytes)
        }
        let statusLine = reply.prefix(12)
        expect(["HTTP/1.1 200", "HTTP/1.1 400", "HTTP/1.1 413"].contains(statusLine), "unexpected answer '\(statusLine)'")
    }

    /// Sends `request` on a new loopback connection and reads the answer until the server closes it.
    private static func exchange(_ request: [UInt8]) -> String {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        expect(socketFD >= 0, "no socket")
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "" }
        // A read that waits 5 s has met a connection the daemon dropped: counted as no answer.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer 413 and close before reading everything.
            if written <= 0 { break }
            sent += written
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socketFD, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    private static func startDaemon() -> UInt16 {
        signal(SIGPIPE, SIG_IGN)
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(fuzzCompleted, to: Int.self), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: 4096, ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let daemon = options.withUnsafeMutableBufferPointer { buffer in
            withVaList([Int32(MHD_OPTION.ARRAY.rawValue), buffer.baseAddress!, Int32(MHD_OPTION.END.rawValue)]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, fuzzAccess, nil, arguments)
            }
        }
        expect(daemon != nil, "the daemon did not start")
        return petspot_mhd_bound_port(daemon)
    }

    /// What the access handler checks of a form read whole.
    static func check(_ body: RequestBody) {
        guard case .form(let form) = body else {
            expect(false, "a multipart body was not read as a form")
            return
        }
        let textBytes = form.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        // Invalid UTF-8 becomes U+FFFD (3 bytes for 1), so the text may grow by at most 3×.
        expect(textBytes <= 3 * limits.maxFieldBytes, "fields hold \(textBytes) bytes")
        // A file is written by its own queue (Sources/MicroHTTP/UploadStorage+C.swift): `read` waits for
        // the writes, as the photo pool does, and then reads what is on disk.
        for file in form.files {
            let size = file.read()?.count ?? -1
            expect(size == file.byteCount, "file of \(file.byteCount) bytes is \(size) on disk")
        }
    }
}

/// The fuzz daemon's per-request state: the reader and the paths of its files.
private final class FuzzRequest {
    let reader: BodyReader
    var paths: [String] = []
    init(reader: BodyReader) { self.reader = reader }
}

/// The access handler: a `BodyReader` per request, fed every piece, checked once the body is in.
private let fuzzAccess: MHD_AccessHandlerCallback = { _, connection, _, _, _, uploadData, uploadDataSize, requestContext in
    guard let connection, let requestContext, let uploadDataSize else { return .NO }
    guard let raw = requestContext.pointee else {
        let state = FuzzRequest(reader: BodyReader(connection: connection, limits: MultipartTarget.limits, isForm: true))
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        return .YES
    }
    let state = Unmanaged<FuzzRequest>.fromOpaque(raw).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        if let uploadData { state.reader.consume(uploadData, count: uploadDataSize.pointee) }
        uploadDataSize.pointee = 0
        return .YES
    }
    let status: UInt32
    switch state.reader.finish() {
    case .success(let body):
        MultipartTarget.check(body)
        state.paths = body.form?.files.map(\.path) ?? []
        status = 200
    case .failure(.tooLarge): status = 413
    case .failure: status = 400
    }
    guard let response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else { return .NO }
    defer { MHD_destroy_response(response) }
    return MHD_queue_response(connection, status, response)
}

/// The completion notice: the reader discards its files, which must then go. Each file is deleted by
/// its own queue once its last holder lets go (Sources/MicroHTTP/UploadStorage+C.swift), so "gone" is
/// waited for, up to a bound far above a deletion's time: a file still there after it was left behind.
private let fuzzCompleted:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode
    ) -> Void = { _, _, requestContext, _ in
        guard let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        let state = Unmanaged<FuzzRequest>.fromOpaque(raw).takeRetainedValue()
        state.reader.discard()
        for path in state.paths {
            var waited = 0
            while FileManager.default.fileExists(atPath: path), waited < 10_000 {
                usleep(1000)
                waited += 1
            }
            expect(!FileManager.default.fileExists(atPath: path), "\(path) left behind")
        }
    }
