import Foundation
import HTTPTypes

/// One upstream HTTP answer, body already read (and capped).
public struct UpstreamResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// Header fields (names compare case-insensitively).
    public var headers: HTTPFields
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A call to the upstream: a GET (or a POST with a body), path with query, extra headers, total
/// timeout and cap on the answer's body.
public struct UpstreamRequest: Sendable {
    /// GET for reads; POST for the report flow's writes.
    public var method: HTTPRequest.Method = .get
    /// The body of a POST (its `Content-Type` is among `headers`).
    public var body: [UInt8]?
    /// Path and query, e.g. `/api/v1/announcements?lat=52.2297&lng=21.0122&range=10`.
    public var pathAndQuery: String
    /// Extra header fields (request id, If-None-Match).
    public var headers: HTTPFields
    /// Total time for the call, body included.
    public var timeout: Duration
    /// Largest body accepted; a larger one is a `bodyTooLarge` failure.
    public var maxBodyBytes: Int

    /// Creates a request.
    public init(pathAndQuery: String, headers: HTTPFields, timeout: Duration, maxBodyBytes: Int) {
        self.pathAndQuery = pathAndQuery
        self.headers = headers
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
    }
}

/// The upstream as a small client value (docs/style.md "Wrap each external system"): the live one is
/// AsyncHTTPClient (`UpstreamTransport.live`); unit tests pass closures.
public struct UpstreamTransport: Sendable {
    /// Performs one call (a GET, or a POST with its body); throws only `UpstreamFailure`
    /// (transport-level: unreachable, timeout, too large, truncated).
    public var get: @Sendable (UpstreamRequest) async throws(UpstreamFailure) -> UpstreamResponse
    /// Releases connections; called once at shutdown.
    public var shutdown: @Sendable () async -> Void

    /// Creates a transport from closures.
    public init(
        get: @escaping @Sendable (UpstreamRequest) async throws(UpstreamFailure) -> UpstreamResponse,
        shutdown: @escaping @Sendable () async -> Void = {}
    ) {
        self.get = get
        self.shutdown = shutdown
    }
}

extension HTTPField.Name {
    /// `request-id`: the backend's own request id on its answers (docs/upstream.md §1).
    public static let upstreamRequestID = Self("request-id")!
    /// `X-Request-Id`: our request id, sent upstream so both logs name the same request.
    static let forwardedRequestID = Self("X-Request-Id")!
}
