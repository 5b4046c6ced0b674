import Foundation
import MicroHTTP

/// The backend's HTTP habits, as far as the stub needs them. A small copy of DemoUpstream's
/// conventions: test support must not depend on the app's targets (Package.swift keeps them apart).
enum StubHTTP {
    /// Ten random alphanumerics, like the backend's `request-id`.
    static func newRequestID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<10).compactMap { _ in alphabet.randomElement() })
    }

    /// The backend's error body, always JSON.
    static func error(status: Int, code: String, message: String, requestID: String) -> Response {
        let body = #"{"error":{"requestId":""# + requestID + #"","code":""# + code
            + #"","message":""# + message + #""}}"#
        return .json(Array(body.utf8), status: status)
    }

    /// Adds a weak ETag (length and FNV-1a hash of the body); a matching `If-None-Match` turns a
    /// 2xx into a 304 with an empty body, which is what client revalidation tests need.
    static func withETag(_ response: Response, for request: Request) -> Response {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in response.body {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let etag = "W/\"\(String(response.body.count, radix: 16))-\(String(hash, radix: 16))\""
        var response = response
        response.headers["ETag"] = etag
        guard (200..<300).contains(response.status), let ifNoneMatch = request.headers["If-None-Match"] else {
            return response
        }
        let bare = etag.dropFirst(2)
        let matches = ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag[...] == bare
        }
        return matches ? Response(status: 304, headers: ["ETag": etag]) : response
    }

    /// A syntactically valid announcements list of exactly `bytes` bytes (at least the size of
    /// an empty list): repeated small items, then spaces, which JSON allows between tokens.
    static func hugeList(bytes: Int) -> [UInt8] {
        let open = Array(#"{"data":["#.utf8)
        let close = Array("]}".utf8)
        var body = open
        body.reserveCapacity(max(bytes, open.count + close.count))
        var index = 0
        while true {
            let item = Array(((index == 0 ? "" : ",") + itemJSON(index)).utf8)
            guard body.count + item.count + close.count <= bytes else { break }
            body += item
            index += 1
        }
        let padding = max(0, bytes - body.count - close.count)
        body += [UInt8](repeating: UInt8(ascii: " "), count: padding)
        return body + close
    }

    private static func itemJSON(_ index: Int) -> String {
        #"{"id":"huge-"# + String(index) + #"","petName":"Pet","species":"DOG","status":"MISSING"}"#
    }
}
