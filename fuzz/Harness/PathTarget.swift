import Foundation
import HTTPTypes

@testable import MicroHTTP
@testable import PetDomain
@testable import WebApp

/// A request path as sent: `PercentDecoding` (never a NUL, inverse of both encoders), `Route`
/// (a route's own path parses back to it), and `StaticFiles` (only files found at startup).
enum PathTarget {
    /// `Public/` as the server reads it at startup (`PETSPOT_FUZZ_PUBLIC_DIR`, default `Public`).
    static let staticFiles: StaticFiles = {
        let directory = ProcessInfo.processInfo.environment["PETSPOT_FUZZ_PUBLIC_DIR"] ?? "Public"
        do {
            return try StaticFiles(directory: directory)
        } catch {
            fatalError("\(error)")
        }
    }()

    static func run(_ bytes: [UInt8]) {
        let raw = text(bytes)
        guard let path = PercentDecoding.decode(raw) else { return }
        expect(!path.utf8.contains(0), "decoded path holds a NUL")
        if !raw.utf8.contains(UInt8(ascii: "%")) { expect(sameBytes(path, raw), "text without escapes changed") }
        let encoded = PercentDecoding.encodeComponent(path)
        expect(sameBytes(encoded, URLText.encodeComponent(path)), "the two component encoders disagree on '\(path)'")
        expect(PercentDecoding.decode(encoded).map { sameBytes($0, path) } == true, "decode(encode(x)) != x for '\(path)'")

        guard let route = Route(path: path) else { return }
        checkRoundTrip(route)
        if route.kind == .staticFile,
            case let file = route.id,
            let response = staticFiles.response(for: file, request: Request(path: path, rawPath: raw))
        {
            guard let asset = staticFiles.assets[file] else {
                fatalError("invariant broken: /static/ answered a path that is not a file of Public/: '\(file)'")
            }
            let segments = file.split(separator: "/", omittingEmptySubsequences: false)
            expect(!segments.contains { $0.isEmpty || $0.hasPrefix(".") }, "static path with an empty or dot segment: '\(file)'")
            expect(response.status == 200 && response.body == asset.body, "static answer is not the file")
        }
    }

    /// A route's printed path, decoded as a request path would be, parses back to the same route.
    static func checkRoundTrip(_ route: Route) {
        guard let decoded = PercentDecoding.decode(route.path) else {
            fatalError("invariant broken: the path of \(route) does not decode: \(route.path)")
        }
        expect(Route(path: decoded) == route, "\(route) prints \(route.path), which parses as \(String(describing: Route(path: decoded)))")
    }
}
