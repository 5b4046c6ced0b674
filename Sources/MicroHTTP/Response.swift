import Foundation

/// An HTTP response as handlers produce it: status, headers and a body of bytes.
public struct Response: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Response headers. `Content-Length` is set by the server.
    public var headers: HTTPHeaders
    /// The body. For `HEAD` the server sends the headers (with this body's length) but no body.
    public var body: [UInt8]

    /// Fault injection for tests of clients: announce the whole body's length but close the
    /// connection after this many body bytes. Nil (the default) sends the body whole.
    public var closeAfterBodyBytes: Int?

    /// Set when this exact answer (headers and body) is right for every request of the same target
    /// until this instant, so `KeptAnswers` may serve it without asking the application again.
    /// Nil (the default): the answer is for this request only.
    public var reusableUntil: ContinuousClock.Instant?

    /// Creates a response.
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeAfterBodyBytes = nil
        self.reusableUntil = nil
    }

    /// A response with a UTF-8 text body and the given content type.
    public static func text(
        _ text: String,
        status: Int = 200,
        contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// A `text/html` response.
    public static func html(_ html: String, status: Int = 200) -> Response {
        .text(html, status: status, contentType: "text/html; charset=utf-8")
    }

    /// An `application/json` response from bytes already encoded.
    public static func json(_ body: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }
}

/// The function a server calls for every GET or HEAD request it accepts. A thrown error becomes
/// the configuration's 500 response; the error itself goes to the log, never to the client.
public typealias Handler = @Sendable (Request) async throws -> Response

/// Answers a request at once on the server thread when the answer is in hand, or returns nil to
/// pass it to the async `Handler`. Must not block: it runs on one of libmicrohttpd's few threads.
public typealias ImmediateHandler = @Sendable (Request) -> Response?
