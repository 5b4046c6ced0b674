import Logging

/// Settings of one HTTP server instance.
public struct ServerConfiguration: Sendable {
    /// IPv4 address to bind, e.g. `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// Port to bind; 0 picks a free port (read it back from `HTTPServer.port`).
    public var port: Int
    /// Worker threads of libmicrohttpd, each with its own epoll loop.
    public var threadCount: Int
    /// Most simultaneous connections; more are refused by libmicrohttpd.
    public var connectionLimit: Int
    /// Seconds an idle connection is kept open.
    public var idleTimeoutSeconds: Int
    /// Bytes of request line plus headers a connection may use; longer gets 414 or 431.
    public var requestHeaderLimit: Int

    /// Creates a configuration; defaults suit a small public server.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        threadCount: Int = 4,
        connectionLimit: Int = 1000,
        idleTimeoutSeconds: Int = 30,
        requestHeaderLimit: Int = 16 * 1024
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionLimit = connectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.requestHeaderLimit = requestHeaderLimit
    }
}

/// An HTTP/1.1 server on libmicrohttpd that runs an async handler for every GET and HEAD request.
public final class HTTPServer: Sendable {
    /// Creates a server; call `start()` to listen.
    public init(configuration: ServerConfiguration, logger: Logger, handler: @escaping Handler) {
        fatalError("not implemented yet")
    }

    /// Binds and starts serving. Throws `ServerError` naming what failed.
    public func start() throws {}

    /// The bound port (the real one when the configuration asked for 0).
    public var port: Int { 0 }

    /// Stops accepting, lets in-flight requests finish (up to `gracePeriod`), then stops.
    public func stop(gracePeriod: Duration = .seconds(10)) async {}
}
