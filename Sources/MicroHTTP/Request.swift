/// An HTTP request as handlers see it: plain values copied out of libmicrohttpd.
public struct Request: Sendable {
    /// The request method as sent, e.g. `GET` or `HEAD`.
    public var method: String
    /// The percent-decoded path, e.g. `/pets/42`. Never contains a NUL byte (such requests get a 400).
    public var path: String
    /// The path exactly as it arrived on the request line, still percent-encoded.
    public var rawPath: String
    /// Decoded query items in the order sent; repeated keys are kept.
    public var query: QueryItems
    /// Request headers; names compare case-insensitively.
    public var headers: HTTPHeaders
    /// The peer's IP address as text, when known.
    public var clientAddress: String?
    /// The peer's TCP port, when known (one connection keeps one port: keep-alive is visible here).
    public var clientPort: Int?
    /// The request target as it arrived, as the key of `KeptAnswers` (set by a server that keeps
    /// answers; nil otherwise and for targets too long to keep).
    public var targetKey: [UInt8]?

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: String,
        path: String,
        rawPath: String? = nil,
        query: QueryItems = QueryItems(),
        headers: HTTPHeaders = HTTPHeaders(),
        clientAddress: String? = nil,
        clientPort: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers
        self.clientAddress = clientAddress
        self.clientPort = clientPort
    }

    /// True for `HEAD`: the server drops the body but keeps every header.
    public var isHead: Bool { method == "HEAD" }
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

/// HTTP header fields in order; lookups ignore the case of names.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as (name, value) pairs.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates a header list.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Creates a header list from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name` (case-insensitive), or nil. Setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get {
            fields.first(where: { HTTPHeaders.sameName($0.name, name) })?.value
        }
        set {
            fields.removeAll { HTTPHeaders.sameName($0.name, name) }
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// ASCII case-insensitive comparison of two field names, without allocating lower-cased
    /// copies (every response passes several lookups: this is on the hot path).
    public static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        var rightIndex = right.startIndex
        for leftByte in left {
            let rightByte = right[rightIndex]
            rightIndex = right.index(after: rightIndex)
            guard leftByte == rightByte || (leftByte | 0x20 == rightByte | 0x20 && (0x61...0x7A).contains(leftByte | 0x20)) else { return false }
        }
        return true
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Iterates the (name, value) pairs.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
