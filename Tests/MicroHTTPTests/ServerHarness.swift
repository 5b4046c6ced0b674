import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts a real server on 127.0.0.1 port 0 around `handler`, runs `body`, and always stops it.
@discardableResult
func withServer<T>(
    configuration: ServerConfiguration = ServerConfiguration(),
    handler: @escaping AsyncHandler,
    _ body: (HTTPServer, URL) async throws -> T
) async throws -> T {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    let server = HTTPServer(configuration: configuration, logger: logger, waiting: handler)
    try server.start()
    let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
    do {
        let result = try await body(server, base)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
