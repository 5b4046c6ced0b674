import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends bytes exactly as given over a fresh TCP connection to 127.0.0.1 and returns the reply.
///
/// URLSession (libcurl) normalizes URLs — it re-encodes `%zz` and removes `..` segments — so
/// tests of hostile request lines need a client that sends them verbatim.
public enum RawHTTP {
    /// The status code of the reply to `GET target` sent verbatim, or nil when the server sent none.
    public static func status(port: Int, target: String, method: String = "GET", from source: String? = nil) -> Int? {
        let reply = send(port: port, text: "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", from: source)
        let parts = reply.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }

    /// Opens a TCP connection to 127.0.0.1:`port` and sends nothing: the descriptor (the caller
    /// closes it), or nil when the connection could not be made.
    public static func openIdle(port: Int, from source: String? = nil) -> Int32? {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        if let source, !bind(socketFD, to: source) {
            close(socketFD)
            return nil
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socketFD)
            return nil
        }
        return socketFD
    }

    /// Slowloris: opens a connection, sends a request line, then one header line every `interval`,
    /// never ending the headers, for at most `limit`. Returns how many header lines were sent
    /// before the server closed the connection, or nil when it was still open at `limit`.
    public static func trickle(port: Int, interval: Duration, limit: Duration) -> Int? {
        guard let socketFD = openPolled(port: port) else { return 0 }
        defer { close(socketFD) }
        let clock = ContinuousClock()
        let end = clock.now + limit
        var lines = 0
        var text = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        while clock.now < end {
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 { return lines }
            lines += 1
            text = "X-Trickle-\(lines): x\r\n"
            if closedWithin(interval, socketFD: socketFD) { return lines }
        }
        return nil
    }

    /// A connection whose reads give up after 50 ms (so a trickle can watch for the server's end).
    private static func openPolled(port: Int) -> Int32? {
        guard let socketFD = openIdle(port: port) else { return nil }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        signal(SIGPIPE, SIG_IGN)
        return socketFD
    }

    /// Waits `interval`, reading what the server sends; true when it ended the stream meanwhile.
    private static func closedWithin(_ interval: Duration, socketFD: Int32) -> Bool {
        let clock = ContinuousClock()
        let next = clock.now + interval
        var buffer = [UInt8](repeating: 0, count: 512)
        while clock.now < next {
            let count = recv(socketFD, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return true }
        }
        return false
    }

    /// A slow upload: sends `head` (ending with its blank line), then one body byte every
    /// `interval`, for at most `limit`. True when the server closed the connection first.
    public static func trickleBody(port: Int, head: String, interval: Duration, limit: Duration) -> Bool {
        guard let socketFD = openPolled(port: port) else { return false }
        defer { close(socketFD) }
        let clock = ContinuousClock()
        let end = clock.now + limit
        var text = head + "0123456789"
        while clock.now < end {
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 { return true }
            text = "x"
            if closedWithin(interval, socketFD: socketFD) { return true }
        }
        return false
    }

    /// Binds `socketFD` to the loopback address `source` (e.g. `127.0.0.2`: a second client
    /// address on one machine), any port.
    private static func bind(_ socketFD: Int32, to source: String) -> Bool {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = 0
        local.sin_addr.s_addr = inet_addr(source)
        return withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Writes `text`, reads until the server closes (at most 5 s), returns what arrived.
    /// `source` picks the client's loopback address (default: the kernel's choice, 127.0.0.1).
    public static func send(port: Int, text: String, from source: String? = nil) -> String {
        String(decoding: sendBytes(port: port, text: text, from: source), as: UTF8.self)
    }

    /// `send`, the reply as the bytes that arrived (a compressed body is not UTF-8).
    public static func sendBytes(port: Int, text: String, from source: String? = nil) -> [UInt8] {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return [] }
        defer { close(socketFD) }
        if let source, !bind(socketFD, to: source) { return [] }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return [] }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(socketFD, $0.baseAddress, $0.count) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(socketFD, &buffer, buffer.count)
            if count <= 0 { break }
            reply.append(contentsOf: buffer[0..<count])
        }
        return reply
    }
}

/// `RawHTTP` blocks its thread on socket reads. On a 2-core machine Swift's cooperative pool has
/// two threads, which the server under test needs for its own handlers, so a blocking read there
/// can stall the very server it waits for (seen: a 5 s time-out in a full parallel run). These
/// run it on a Dispatch thread instead; async tests use these, never `RawHTTP` directly.
public func rawSend(port: Int, text: String) async -> String {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: RawHTTP.send(port: port, text: text)) }
    }
}

/// `RawHTTP.trickle` on a Dispatch thread (see `rawSend`).
public func rawTrickle(port: Int, interval: Duration, limit: Duration) async -> Int? {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: RawHTTP.trickle(port: port, interval: interval, limit: limit)) }
    }
}

/// The status of `GET target` sent verbatim (see `rawSend`).
public func rawStatus(port: Int, target: String, from source: String? = nil) async -> Int? {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: RawHTTP.status(port: port, target: target, from: source)) }
    }
}

/// One reply read whole from a raw socket, its body as the bytes that arrived (never decoded:
/// URLSession's libcurl decodes gzip and br itself, so tests of content codings read them here).
public struct RawReply: Sendable {
    /// The status code (0 when the reply had no status line).
    public let status: Int
    /// Header fields by lowercased name (a repeated field's values joined with ", ").
    public let headers: [String: String]
    /// The body bytes as sent.
    public let body: [UInt8]

    /// A header's value by name, any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// `method target` with `headers` (and `body`, with its `Content-Length`), sent verbatim on a fresh
/// connection (see `rawSend`): the reply, its body as it came on the wire.
public func rawRequest(port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async -> RawReply {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    let request = text
    let bytes: [UInt8] = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: RawHTTP.sendBytes(port: port, text: request)) }
    }
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
        return RawReply(status: 0, headers: [:], body: [])
    }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines.first?.split(separator: " ") ?? []
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        fields[name] = fields[name].map { $0 + ", " + value } ?? value
    }
    return RawReply(status: statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0, headers: fields, body: Array(bytes[(end + 4)...]))
}
