import Foundation
import HTTPTypes
import Logging
import Synchronization

/// Settings of one HTTP server instance.
public struct ServerConfiguration: Sendable {
    /// IPv4 or IPv6 address to bind, e.g. `127.0.0.1`, `0.0.0.0` or `::1`; `localhost` means `127.0.0.1`.
    public var host: String
    /// Port to bind; 0 picks a free port (read it back from `HTTPServer.port`).
    public var port: Int
    /// Worker threads of libmicrohttpd, each with its own epoll loop.
    public var threadCount: Int
    /// Most simultaneous connections, further bounded by the process's file-descriptor limit
    /// (`start` raises the soft limit to the hard one where allowed, then keeps
    /// `reservedDescriptors` free for upstream connections and files: see
    /// `effectiveConnectionLimit`). At the limit libmicrohttpd stops accepting: further
    /// connections wait in the kernel's listen backlog (they are not refused).
    public var connectionLimit: Int
    /// Descriptors left for everything but client connections.
    public var reservedDescriptors: Int
    /// The deadline for a request's headers (see `ConnectionWatch`); zero turns it off.
    public var headerTimeout: Duration
    /// Called with the number of connections cut at the header deadline by one sweep.
    public var onHeaderDeadline: @Sendable (_ cut: Int) -> Void
    /// Most simultaneous connections from one IP address (0: no such limit). libmicrohttpd
    /// accepts and at once closes each one over it: a refusal, counted by `refusedConnections`.
    public var perAddressConnectionLimit: Int
    /// Seconds an idle connection is kept open.
    public var idleTimeoutSeconds: Int
    /// Bytes of memory per connection for the request line and headers; a longer
    /// request line is answered 414 and longer headers 431 by libmicrohttpd itself. 16 KiB:
    /// libmicrohttpd 0.9.75 zeroes the whole of it before each request of a keep-alive connection
    /// (5 % of a warm answer's CPU at 32 KiB); browsers send 1-8 KiB of headers.
    public var connectionMemoryLimit: Int
    /// The longest request target (raw path and query) handed to the application; a longer one
    /// is answered 414 by `errorResponse` and finished like every answer. Kept well below
    /// `connectionMemoryLimit`, so only targets libmicrohttpd cannot even hold get its bare 414.
    public var maxTargetBytes: Int
    /// Renders the answers the server itself gives (400 for undecodable URLs, 405, 414, 500, 503 while
    /// stopping), once, from the request as far as it was read: its headers too, so the application
    /// can answer in the visitor's language without this module knowing `Accept-Language`
    /// (docs/architecture.md "Errors"). Called on a server thread, or in `stop`.
    public var errorResponse: @Sendable (_ answer: ServerMadeAnswer) -> Response
    /// Finishes each answer the server makes itself (400 for an undecodable URL, 405, 500, 503)
    /// the way the application finishes its own: its request id, its metric, its log line
    /// (every answer through one pipeline, docs/architecture.md). Called on a server thread, or in `stop`.
    /// libmicrohttpd's own 414 and 431 (past `connectionMemoryLimit`) never reach Swift code.
    public var finishServerAnswer: @Sendable (_ response: inout Response, _ request: ServerMadeAnswer) -> Void
    /// Decides, from the head of a request whose method is not GET or HEAD, whether to read its
    /// body and within which limits. Nil: every such request is answered 405 (`Allow: GET, HEAD`).
    /// A `.refuse` response is sent as it is: the application gives it its request id and records it.
    public var bodyPolicy: (@Sendable (RequestHead) -> BodyDecision)?
    /// The answer for an accepted body that could not be read whole (too large, a malformed form,
    /// no room for an upload), sent as it is (the application records it). Called on a server thread.
    public var bodyRefusal: @Sendable (_ problem: BodyProblem, _ head: RequestHead) -> Response
    /// Called for each connection libmicrohttpd refuses (over `perAddressConnectionLimit`), on a
    /// server thread; keep it cheap: under a flood it runs for every attempt.
    public var onRefusedConnection: @Sendable () -> Void

    /// Creates a configuration; defaults suit a small public server.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        threadCount: Int = 4,
        connectionLimit: Int = 10_000,
        reservedDescriptors: Int = 256,
        perAddressConnectionLimit: Int = 0,
        headerTimeout: Duration = .seconds(10),
        idleTimeoutSeconds: Int = 30,
        connectionMemoryLimit: Int = 16 * 1024,
        maxTargetBytes: Int = 8 * 1024,
        errorResponse: @escaping @Sendable (_ status: HTTPResponse.Status, _ message: String) -> Response = { status, message in
            .text(message + "\n", status: status)
        }
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionLimit = connectionLimit
        self.reservedDescriptors = reservedDescriptors
        self.headerTimeout = headerTimeout
        self.onHeaderDeadline = { _ in }
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxTargetBytes = maxTargetBytes
        // The simple form (status and English message) for servers that speak one language.
        self.errorResponse = { answer in errorResponse(answer.status, answer.message) }
        self.finishServerAnswer = { _, _ in }
        self.onRefusedConnection = {}
        self.bodyPolicy = nil
        self.bodyRefusal = { problem, _ in
            switch problem {
            case .tooLarge: errorResponse(413, "The request body is too large.")
            case .malformed: errorResponse(400, "The request body could not be read.")
            case .storageFailed: errorResponse(500, "Something went wrong on our side.")
            }
        }
    }
}

/// An answer the server makes itself, and the request it is for, as far as the server read it.
public struct ServerMadeAnswer: Sendable {
    /// The answer's status (400, 405, 414, 500, 503).
    public let status: HTTPResponse.Status
    /// Why, in English: the text of the simple `errorResponse`.
    public let message: String
    /// The request method as sent (text: a 405 names a method this server does not take, which
    /// need not be one `HTTPRequest.Method` accepts).
    public let method: String
    /// The raw path as it arrived (still percent-encoded).
    public let rawPath: String
    /// The request's header fields as read (empty when none could be read): the application
    /// chooses from them what this module does not (the language, the request id).
    public let headers: HTTPFields

    /// The client's `X-Request-Id`, when it sent one.
    public var requestIDHeader: String? { headers.value(.xRequestID) }

    public init(status: HTTPResponse.Status, message: String, method: String, rawPath: String, headers: HTTPFields) {
        self.status = status
        self.message = message
        self.method = method
        self.rawPath = rawPath
        self.headers = headers
    }
}

/// An HTTP/1.1 server on libmicrohttpd that calls one `Handler` for every request it accepts.
///
/// libmicrohttpd runs `threadCount` epoll threads. A GET or HEAD is first offered to the
/// application's `PreparedResponses`, before any `Request` is built. Otherwise the handler is
/// called once per request, on the server thread that read it: an answer in hand (`.now`: a page
/// made from data in memory, a static file) is queued at once, with no suspend/resume and no task
/// hop. For an answer that waits (`.later`), the connection is suspended while the work runs in a
/// task, and resumed when the response is ready, so a slow answer never blocks a server thread
/// (docs/transport.md "Threading").
public final class HTTPServer: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let handler: Handler
    /// The application's prepared answers, asked before a `Request` is built.
    let preparedResponses: (any PreparedResponses)?

    let daemon = Mutex<DaemonHandle?>(nil)
    let boundPort = Atomic<Int>(0)
    /// Requests between the first handler call and libmicrohttpd's completion notice.
    let inFlight = Atomic<Int>(0)
    /// False once `stop` began: new requests are answered 503 at once instead of being suspended.
    let accepting = Atomic<Bool>(true)
    /// Connections suspended while their handler runs, so `stop` can resume them if it must.
    let suspended = Mutex<[ObjectIdentifier: SuspendedRequest]>([:])
    /// Connections refused since start (see `refusedConnections`).
    let refused = Atomic<Int>(0)
    /// The header deadline's watch (nil when `headerTimeout` is zero).
    let watch: ConnectionWatch?
    let connectionLimitInUse = Atomic<Int>(0)

    /// Creates a server; call `start()` to listen. `handler` runs on the server thread and must not
    /// block (no I/O, no waiting): work that waits goes in its `.later` answer.
    /// `preparedResponses`, when given, is asked first for every GET and HEAD (see `PreparedResponses`).
    public init(
        configuration: ServerConfiguration,
        logger: Logger,
        preparedResponses: (any PreparedResponses)? = nil,
        handler: @escaping Handler
    ) {
        self.configuration = configuration
        self.logger = logger
        self.preparedResponses = preparedResponses
        self.handler = handler
        let onHeaderDeadline = configuration.onHeaderDeadline
        watch =
            configuration.headerTimeout > .zero
            ? ConnectionWatch(headerTimeout: configuration.headerTimeout, idleTimeout: .seconds(configuration.idleTimeoutSeconds)) { cut in
                onHeaderDeadline(cut)
                logger.info("connections cut at the header deadline", metadata: ["count": "\(cut)"])
            }
            : nil
    }

    /// Creates a server whose every answer waits: `handler` runs in a task, never on a server thread.
    public convenience init(
        configuration: ServerConfiguration,
        logger: Logger,
        preparedResponses: (any PreparedResponses)? = nil,
        waiting handler: @escaping AsyncHandler
    ) {
        self.init(configuration: configuration, logger: logger, preparedResponses: preparedResponses) { request in
            .later { try await handler(request) }
        }
    }

    /// The connection limit in use: `connectionLimit`, or less when the descriptor limit is lower
    /// (0 before `start()`).
    public var effectiveConnectionLimit: Int { connectionLimitInUse.load(ordering: .relaxed) }

    /// The bound port (the real one when the configuration asked for 0); 0 before `start()`.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// Connections libmicrohttpd accepted and closed at once since start: over
    /// `perAddressConnectionLimit`, or (in a race at the edge) over `connectionLimit`.
    public var refusedConnections: Int { refused.load(ordering: .relaxed) }
}

extension HTTPServer {
    /// Whether the warning of `warnOnceWithoutReuse` was given.
    private static let warnedWithoutReuse = Atomic<Bool>(false)

    /// Logs once per process that prepared answers are sent without reusing native responses,
    /// when the running libmicrohttpd is not a version that reuse was verified on (`PreparedResponse`).
    static func warnOnceWithoutReuse(_ logger: Logger) {
        guard !PreparedResponse.reusesNativeResponses,
            warnedWithoutReuse.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        logger.warning(
            "libmicrohttpd version not verified for reusing native responses: each prepared answer gets its own",
            metadata: [
                "version": "\(PreparedResponse.libraryVersion)",
                "verified": "\(PreparedResponse.verifiedLibraryVersions.sorted().joined(separator: ", "))",
            ]
        )
    }

    /// One message libmicrohttpd logged. A refused connection (its message is the same for the
    /// per-address and the overall limit) is counted (and passed
    /// to `onRefusedConnection`); it is logged at the 1st, 2nd, 4th, 8th… refusal, so a flood of
    /// refused connections costs a few log lines, not one each. Anything else is logged as a warning.
    func libraryMessage(_ text: String) {
        let message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if message.contains("reached connection limit") {
            let count = refused.add(1, ordering: .relaxed).newValue
            configuration.onRefusedConnection()
            if count & (count - 1) == 0 {
                logger.warning(
                    "connections refused at a connection limit",
                    metadata: [
                        "refused_total": "\(count)", "connection_limit": "\(configuration.connectionLimit)",
                        "per_address_limit": "\(configuration.perAddressConnectionLimit)",
                    ]
                )
            }
            return
        }
        logger.warning("libmicrohttpd", metadata: ["message": "\(message)"])
    }
}
