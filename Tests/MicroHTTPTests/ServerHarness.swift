import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import MicroHTTP

/// Starts a real server on 127.0.0.1 port 0 around `handler`, runs `body`, and always stops it.
@discardableResult
func withServer<T>(
    configuration: ServerConfiguration = ServerConfiguration(),
    handler: @escaping Handler,
    _ body: (HTTPServer, URL) async throws -> T
) async throws -> T {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    let server = HTTPServer(configuration: configuration, logger: logger, handler: handler)
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

/// A plain GET (or other method) over URLSession returning status, headers and body.
func fetch(
    _ url: URL,
    method: String = "GET",
    headers: [String: String] = [:],
    session: URLSession = .shared
) async throws -> (status: Int, headers: [String: String], body: Data) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var lowered: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
        if let key = key as? String, let value = value as? String { lowered[key.lowercased()] = value }
    }
    return (http.statusCode, lowered, data)
}

/// A header value from `fetch`'s lower-cased dictionary, found case-insensitively.
func header(_ name: String, in headers: [String: String]) -> String? {
    headers[name.lowercased()]
}

/// Builds a URL from a string the test knows is valid.
func url(_ base: URL, _ pathAndQuery: String) throws -> URL {
    try #require(URL(string: base.absoluteString + pathAndQuery))
}

/// A URLSession allowed 256 parallel connections to one host (the shared one allows only a few,
/// which would measure the client's queue instead of the server).
func wideSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 256
    configuration.timeoutIntervalForRequest = 30
    return URLSession(configuration: configuration)
}
