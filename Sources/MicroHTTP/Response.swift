import Foundation
import HTTPTypes

/// An HTTP response as handlers produce it: a status and header fields in the vocabulary of
/// swift-http-types (`head` gives the whole `HTTPResponse`), and a body of bytes.
///
/// Status and fields are stored, not a stored `HTTPResponse`: a handler sets several fields on
/// every answer, and a stored property mutates in place where a computed one over `head` would
/// copy the field list once per change.
public struct Response: Sendable {
    /// The status, e.g. `.ok` (an integer literal works too: `404`).
    public var status: HTTPResponse.Status
    /// Response header fields. `Content-Length` and `Date` are set by the server.
    public var headers: HTTPFields
    /// The body. For `HEAD` the server sends the headers (with this body's length) but no body.
    public var body: [UInt8]

    /// Fault injection for tests of clients (a lying upstream): announce the whole body's length
    /// but close the connection after this many body bytes. Nil (the default) sends the body
    /// whole. `package`: test support in this package sets it; it is not part of the public API.
    package var closeAfterBodyBytes: Int?

    /// Set when this exact answer (headers and body) is right for every request of the same target
    /// until this instant, so `KeptAnswers` may serve it without asking the application again.
    /// Nil (the default): the answer is for this request only.
    public var reusableUntil: ContinuousClock.Instant?

    /// Compressed forms of `body`, made once by whoever keeps this answer; the one to send is
    /// chosen per request by `Accept-Encoding` (see `BodyCompression`). Nil: none made.
    public var compressed: CompressedForms?

    /// False keeps this answer uncompressed whatever the client accepts: set it on a page that
    /// holds a secret next to text the visitor controls (BREACH). `Cache-Control: no-store` does
    /// the same for every answer that sends it.
    public var mayCompress: Bool

    /// Creates a response.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeAfterBodyBytes = nil
        self.reusableUntil = nil
        self.compressed = nil
        self.mayCompress = true
    }

    /// Creates a response from a swift-http-types head and a body.
    public init(head: HTTPResponse, body: [UInt8] = []) {
        self.init(status: head.status, headers: head.headerFields, body: body)
    }

    /// The response head as swift-http-types spells it.
    public var head: HTTPResponse {
        get { HTTPResponse(status: status, headerFields: headers) }
        set {
            status = newValue.status
            headers = newValue.headerFields
        }
    }

    /// A response with a UTF-8 text body and the given content type.
    public static func text(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: [.contentType: contentType], body: Array(text.utf8))
    }

    /// A `text/html` response.
    public static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        .text(html, status: status, contentType: "text/html; charset=utf-8")
    }

    /// An `application/json` response from bytes already encoded.
    public static func json(_ body: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: body)
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`: the request id a client may send and every answer carries.
    public static let xRequestID = Self("X-Request-Id")!
}

/// The function a server calls for every GET or HEAD request it accepts. A thrown error becomes
/// the configuration's 500 response; the error itself goes to the log, never to the client.
public typealias Handler = @Sendable (Request) async throws -> Response

/// Answers a request at once on the server thread when the answer is in hand, or returns nil to
/// pass it to the async `Handler`. Must not block: it runs on one of libmicrohttpd's few threads.
public typealias ImmediateHandler = @Sendable (Request) -> Response?
