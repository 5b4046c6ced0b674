import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure of the test client itself (no HTTP response, bad URL).
public struct TestClientError: Error, CustomStringConvertible {
    public let description: String
}

/// One HTTP answer as tests see it: status, headers with lower-cased names, body.
public struct Fetched: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Status, headers and body as a tuple, for destructuring.
    public var parts: (status: Int, headers: [String: String], body: Data) { (status, headers, body) }

    /// A header by name, any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A GET (or another method) over URLSession, without following redirects.
public func fetch(
    _ url: URL,
    method: String = "GET",
    headers: [String: String] = [:],
    session: URLSession = TestSessions.plain
) async throws -> Fetched {
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return try await send(request, session: session)
}

/// Sends `request` over `session` and reads the answer as tests see it.
public func send(_ request: URLRequest, session: URLSession = TestSessions.plain) async throws -> Fetched {
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw TestClientError(description: "not an HTTP response") }
    var lowered: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
        if let key = key as? String, let value = value as? String { lowered[key.lowercased()] = value }
    }
    return Fetched(status: http.statusCode, headers: lowered, body: data)
}

/// `base` + `pathAndQuery` as a URL, throwing when it does not parse.
public func url(_ base: URL, _ pathAndQuery: String) throws -> URL {
    guard let url = URL(string: base.absoluteString + pathAndQuery) else {
        throw TestClientError(description: "bad URL \(pathAndQuery)")
    }
    return url
}

/// URLSessions for tests.
public enum TestSessions {
    /// Many parallel connections per host (the shared session allows only a few, which would
    /// measure the client's queue instead of the server), no redirects followed.
    public static let plain: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 256
        configuration.timeoutIntervalForRequest = 30
        configuration.httpCookieStorage = nil
        // No cookie kept or sent but the ones a test writes itself (Linux's Foundation keeps them even without
        // a storage): the owner page's cookie must reach only the requests that carry it (SightingPagesTests).
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }()
}

/// Keeps 3xx responses as they are, so tests can check `Location`.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A header value from a lower-cased header dictionary, found case-insensitively.
public func header(_ name: String, in headers: [String: String]) -> String? {
    headers[name.lowercased()]
}
