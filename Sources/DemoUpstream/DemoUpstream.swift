import Foundation
import Logging
import MicroHTTP

/// Starts the demo backend on a real loopback socket, so the web app reaches it exactly as it
/// would reach the real one (docs/upstream.md §5: "served over real loopback HTTP").
public enum DemoUpstream {
    /// Starts the demo backend on a free loopback port for a site configured without an upstream:
    /// its base URL and how to stop it (the shape of WebApp's `EmbeddedUpstream`).
    public static func embedded(logger: Logger) throws -> (baseURL: URL, stop: @Sendable () async -> Void) {
        let server = try start(host: "127.0.0.1", port: 0, logger: logger)
        return (URL(string: "http://127.0.0.1:\(server.port)")!, { await server.stop() })
    }

    /// Starts a server answering with `backend` (a fresh `DemoBackend` unless given, e.g. one with
    /// small storage bounds for tests); port 0 picks a free port (read `port` back). The caller owns
    /// the server and stops it with `await server.stop()`.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger,
        backend: DemoBackend = DemoBackend()
    ) throws -> HTTPServer {
        // Two threads: the work per request is tiny, and the machine it demos on may be small.
        var configuration = ServerConfiguration(
            host: host,
            port: port,
            threadCount: 2,
            errorResponse: BackendConventions.serverError
        )
        // The write API reads bodies; the backend decides from the head which ones (DemoBackend+Writes.swift).
        configuration.bodyPolicy = { head in backend.bodyPolicy(head) }
        configuration.bodyRefusal = DemoBackend.bodyRefusal
        let server = HTTPServer(configuration: configuration, logger: logger) { request in
            await backend.handle(request)
        }
        try server.start()
        return server
    }
}
