import Foundation
import Testing

@testable import MicroHTTP

/// The peer address as text, which the write path's limits key on (docs/hardening.md).
@Suite("Peer address text")
struct SocketAddressTests {
    /// IPv4 digits written by hand read as `inet_ntop` writes them, over edge octets and random
    /// addresses (a fixed seed); IPv6 still goes through `inet_ntop`.
    @Test func ipv4_text_agrees_with_inet_ntop() {
        var state: UInt64 = 3
        let edges: [UInt32] = [0, 0xFFFF_FFFF, 0x7F00_0001, 0x0A00_0009, 0x6463_0A01, 0xC0A8_0064]
        let random = (0..<5_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 29)
        }
        for bits in edges + random {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = bits.bigEndian
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var raw = address.sin_addr
            let expected = String(cString: inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)))
            let text = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress.text(of: $0) } }
            #expect(text == expected)
        }
        var ipv6 = sockaddr_in6()
        ipv6.sin6_family = sa_family_t(AF_INET6)
        ipv6.sin6_addr.__in6_u.__u6_addr8.15 = 1
        let loopback = withUnsafePointer(to: &ipv6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress.text(of: $0) } }
        #expect(loopback == "::1")
    }
}
