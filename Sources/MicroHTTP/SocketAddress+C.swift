internal import CMicroHTTPD
import Foundation

/// A bind address built from the configured host text; IPv4 or IPv6.
struct SocketAddress {
    private var storage = sockaddr_storage()
    /// True for an IPv6 address (the daemon then needs `MHD_USE_IPv6`).
    let isIPv6: Bool

    /// Parses `host` (`localhost` means 127.0.0.1) with inet_pton; throws `invalidHost` otherwise.
    init(host: String, port: Int) throws {
        let host = host == "localhost" ? "127.0.0.1" : host
        let networkPort = in_port_t(UInt16(port).bigEndian)
        var storage = sockaddr_storage()
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = networkPort
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw ServerError.invalidHost(host) }
            withUnsafeBytes(of: address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
            isIPv6 = true
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = networkPort
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ServerError.invalidHost(host) }
            withUnsafeBytes(of: address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
            isIPv6 = false
        }
        self.storage = storage
    }

    /// Lends the address as a `sockaddr` pointer, valid only inside `body`.
    func withSockaddrPointer<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }

    /// The numeric text of a peer address, or nil when it is not IPv4/IPv6.
    static func text(of address: UnsafePointer<sockaddr>) -> String? {
        if Int32(address.pointee.sa_family) == AF_INET {
            // IPv4, the usual peer, in digits: inet_ntop cost about 1 % of a located page (callgrind).
            let bits = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return dottedQuad(bits)
        }
        // A stack buffer and String(cString:): this runs for every request the application answers.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer -> String? in
            let written: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, buffer.baseAddress, socklen_t(buffer.count))
                }
            case AF_INET6:
                written = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, buffer.baseAddress, socklen_t(buffer.count))
                }
            default:
                written = nil
            }
            return written.map { String(cString: $0) }
        }
    }

    /// The port of a peer address, or nil when it is not IPv4/IPv6.
    static func port(of address: UnsafePointer<sockaddr>) -> Int? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
        default:
            return nil
        }
    }
}

extension SocketAddress {
    /// The IPv4 address `bits` (most significant octet first) as `inet_ntop` writes it: `a.b.c.d`,
    /// decimal octets without leading zeros.
    static func dottedQuad(_ bits: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { out in
            var at = 0
            for index in 0..<4 {
                let octet = UInt8(truncatingIfNeeded: bits >> (24 - 8 * UInt32(index)))
                if index > 0 {
                    out[at] = UInt8(ascii: ".")
                    at += 1
                }
                if octet >= 100 {
                    out[at] = UInt8(ascii: "0") + octet / 100
                    at += 1
                }
                if octet >= 10 {
                    out[at] = UInt8(ascii: "0") + octet / 10 % 10
                    at += 1
                }
                out[at] = UInt8(ascii: "0") + octet % 10
                at += 1
            }
            return at
        }
    }
}
