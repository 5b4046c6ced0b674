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

    /// Creates a response.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeAfterBodyBytes = nil
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

/// How a handler answers a request: at once, or after waiting for something.
///
/// This is the one way an application answers. The handler runs on the libmicrohttpd thread that
/// read the request (it must not block: no I/O, no waiting), decides once what the request needs,
/// and gives `.now` when the answer is in hand (no suspend, no task, no thread hop) or `.later`
/// with the work that waits: the server then suspends the connection, runs the work in a task and
/// resumes the connection with its answer (docs/transport.md "Threading").
public enum Answer: Sendable {
    /// The answer, queued at once on the server thread.
    case now(Response)
    /// Work that waits (the upstream, a conversion). A thrown error becomes the configuration's
    /// 500 response; the error itself goes to the log, never to the client.
    case later(@Sendable () async throws -> Response)
}

/// The function a server calls, on its own thread, for every request it accepts (GET and HEAD, and
/// requests whose body `ServerConfiguration.bodyPolicy` accepted, once the body is read).
public typealias Handler = @Sendable (Request) -> Answer

/// A handler that always waits: `HTTPServer(configuration:logger:waiting:)` wraps it in `.later`
/// (the demo upstream and test stubs, for which an answer on the server thread gains nothing).
public typealias AsyncHandler = @Sendable (Request) async throws -> Response
