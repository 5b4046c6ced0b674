import HTTPTypes

/// An HTTP request as handlers see it: plain values copied out of libmicrohttpd, in the
/// vocabulary of swift-http-types (`HTTPRequest.Method`, `HTTPFields`; `head` gives the whole
/// `HTTPRequest`), plus what a handler of this server needs beyond the head: the decoded path,
/// the decoded query items and the peer.
public struct Request: Sendable {
    /// The request method: `GET` or `HEAD`, or another one whose body the application's
    /// `ServerConfiguration.bodyPolicy` accepted (the server answers the others itself).
    public var method: HTTPRequest.Method
    /// The percent-decoded path, e.g. `/pets/42`. Never contains a NUL byte (such requests get a 400).
    public var path: String
    /// The path exactly as it arrived on the request line, still percent-encoded.
    public var rawPath: String
    /// Decoded query items in the order sent; repeated keys are kept.
    public var query: QueryItems
    /// Request header fields; names compare case-insensitively (`HTTPField.Name`). `Host` is not
    /// among them: it is `authority`, as swift-http-types has it.
    public var headers: HTTPFields
    /// The `Host` the client sent, when it sent one.
    public var authority: String?
    /// The peer's IP address as text, when known.
    public var clientAddress: String?
    /// The peer's TCP port, when known (one connection keeps one port: keep-alive is visible here).
    public var clientPort: Int?
    /// The request target as it arrived: the raw path, then `?` before the first raw query item and
    /// `&` between items, each `name` or `name=value` as sent (still percent-encoded; libmicrohttpd
    /// has turned a query's `+` into a space and split each item at its first `=`). For one
    /// request these are the bytes `RawRequest.withTarget` gives a `PreparedResponses` hook.
    public var rawTarget: String
    /// The body, read whole before the handler is called (`.none` for GET and HEAD).
    public var body: RequestBody = .none
    /// What the application's body policy decided from the head (`BodyDecision.accept`); nil for GET and HEAD.
    public var decided: (any Sendable)?

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: HTTPRequest.Method = .get,
        path: String,
        rawPath: String? = nil,
        query: QueryItems = QueryItems(),
        headers: HTTPFields = [:],
        authority: String? = nil,
        clientAddress: String? = nil,
        clientPort: Int? = nil,
        rawTarget: String? = nil
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers
        self.authority = authority
        self.clientAddress = clientAddress
        self.clientPort = clientPort
        self.rawTarget = rawTarget ?? (self.rawPath + (query.isEmpty ? "" : "?" + Request.encoded(query)))
    }

    /// True for `HEAD`: the server drops the body but keeps every header.
    public var isHead: Bool { method == .head }

    /// The request head as swift-http-types spells it: method, `http` scheme, the `Host` field as
    /// authority, and the request target (raw path and query as sent) as `path`.
    public var head: HTTPRequest {
        var target = rawPath
        if !query.isEmpty {
            target += "?" + Request.encoded(query)
        }
        return HTTPRequest(method: method, scheme: "http", authority: authority, path: target, headerFields: headers)
    }
}

extension Request {
    /// `query` percent-encoded as `name=value` pairs joined by `&`.
    static func encoded(_ query: QueryItems) -> String {
        query.items.map { PercentDecoding.encodeComponent($0.name) + "=" + PercentDecoding.encodeComponent($0.value) }.joined(separator: "&")
    }
}

/// Query items in the order they were sent, repeated keys kept.
public struct QueryItems: Sendable, Equatable, Sequence {
    /// The items as (name, value) pairs.
    public var items: [(name: String, value: String)]

    /// Creates a list of query items.
    public init(_ items: [(name: String, value: String)] = []) { self.items = items }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        items.first(where: { $0.name == name })?.value
    }

    /// Every value for `name`, in order.
    public func all(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// True when no item is present.
    public var isEmpty: Bool { items.isEmpty }

    /// Iterates the (name, value) pairs.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        items.makeIterator()
    }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.name == $1.name && $0.value == $1.value }
    }
}
