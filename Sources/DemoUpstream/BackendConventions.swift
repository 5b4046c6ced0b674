import Foundation
import HTTPTypes
import MicroHTTP

/// The HTTP habits of the Node/Express backend that clients can observe (docs/upstream.md §1):
/// a `request-id` on every response, CORS `*`, weak ETags on JSON with `If-None-Match` → 304,
/// and the `{"error":{…}}` body. Kept in one place so every route gets them the same way.
enum BackendConventions {
    /// Ten random alphanumerics, the shape of the backend's request ids.
    static func newRequestID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).compactMap { _ in alphabet.randomElement(using: &generator) })
    }

    /// A weak ETag over the body (length and hash, `EntityTag.weak`). Express hashes with SHA-1,
    /// but clients may only compare ETags for equality, so any stable hash imitates it.
    static func weakETag(for body: [UInt8]) -> String { EntityTag.weak(for: body) }

    /// Whether the request's validators match `etag`, as Express's `fresh` decides: a listed tag
    /// (weak comparison) or `*`; `Cache-Control: no-cache` forces a full answer.
    static func isFresh(_ request: Request, etag: String) -> Bool {
        if let cacheControl = request.headers[.cacheControl], cacheControl.lowercased().contains("no-cache") {
            return false
        }
        return EntityTag.matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: etag)
    }

    /// A JSON response with the backend's headers; a 2xx whose ETag the client already has
    /// becomes a 304 with an empty body (Express only revalidates successful answers).
    static func json(_ text: String, status: HTTPResponse.Status = .ok, requestID: String, for request: Request?) -> Response {
        let body = Array(text.utf8)
        let etag = weakETag(for: body)
        var response = Response.json(body, status: status)
        response.headers[.eTag] = etag
        if status.kind == .successful, let request, isFresh(request, etag: etag) {
            response = Response(status: .notModified, headers: [.eTag: etag])
        }
        return decorate(response, requestID: requestID)
    }

    /// The backend's error body; `field` only for parameter errors.
    static func error(
        status: HTTPResponse.Status,
        code: String,
        message: String,
        field: String? = nil,
        requestID: String,
        for request: Request?
    ) -> Response {
        var pairs: [(String, JSONText.Value)] = [
            ("requestId", .string(requestID)),
            ("code", .string(code)),
            ("message", .string(message)),
        ]
        if let field { pairs.append(("field", .string(field))) }
        let body = JSONText.object([("error", .raw(JSONText.object(pairs)))])
        return json(body, status: status, requestID: requestID, for: request)
    }

    /// The answers the HTTP server gives on its own (405 for other methods, 400 for undecodable
    /// URLs, 503 while stopping), in the backend's error shape so clients see one format.
    static func serverError(status: HTTPResponse.Status, message: String) -> Response {
        let code =
            switch status {
            case 400: "INVALID_PARAMETER"
            case 404, 405: "NOT_FOUND"
            default: "INTERNAL_SERVER_ERROR"
            }
        return error(status: status, code: code, message: message, requestID: newRequestID(), for: nil)
    }

    /// Adds the headers every backend response carries.
    static func decorate(_ response: Response, requestID: String) -> Response {
        var response = response
        response.headers[.requestID] = requestID
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }
}

extension HTTPField.Name {
    /// `request-id`: the backend's own request id on every response (docs/upstream.md §1).
    static let requestID = Self("request-id")!
}
