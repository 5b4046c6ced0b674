import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP GET over loopback, for `petspot-web healthcheck` in a container: no
/// FoundationNetworking (and so no libcurl) in the binary, no curl in the image.
enum LoopbackProbe {
    /// The status code of `GET path` on 127.0.0.1:`port`, or nil when nothing answered within `timeoutSeconds`.
    static func status(port: Int, path: String = "/healthz", timeoutSeconds: Int = 3) -> Int? {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        defer { close(socketFD) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let written = request.withUnsafeBytes { write(socketFD, $0.baseAddress, $0.count) }
        guard written == request.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(socketFD, &buffer, buffer.count)
        guard count > 12 else { return nil }
        // "HTTP/1.1 200 OK"
        let line = String(decoding: buffer[0..<count], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
