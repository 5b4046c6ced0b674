import Foundation
import HTTPTypes
import MicroHTTP

/// The backend's HTTP habits, as far as the stub needs them. Request ids and error bodies are a
/// small copy of DemoUpstream's (test support does not depend on the app's targets); ETags come from MicroHTTP.
enum StubHTTP {
    /// Ten random alphanumerics, like the backend's `request-id`.
    static func newRequestID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<10).compactMap { _ in alphabet.randomElement() })
    }

    /// The backend's error body, always JSON.
    static func error(status: HTTPResponse.Status, code: String, message: String, requestID: String) -> Response {
        let body =
            #"{"error":{"requestId":""# + requestID + #"","code":""# + code
            + #"","message":""# + message + #""}}"#
        return .json(Array(body.utf8), status: status)
    }

    /// Adds a weak ETag (length and FNV-1a hash of the body); a matching `If-None-Match` turns a
    /// 2xx into a 304 with an empty body, which is what client revalidation tests need.
    static func withETag(_ response: Response, for request: Request) -> Response {
        let etag = EntityTag.weak(for: response.body)
        var response = response
        response.headers[.eTag] = etag
        guard response.status.kind == .successful,
            EntityTag.matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: etag)
        else { return response }
        return Response(status: .notModified, headers: [.eTag: etag])
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

extension HTTPField.Name {
    /// `request-id`: the backend's request id on every answer.
    static let backendRequestID = Self("request-id")!
}
