import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `multipart/form-data` body built by hand, as a browser sends a form with a file.
public struct Multipart: Sendable {
    /// The boundary between parts.
    public let boundary: String
    private var parts: [UInt8] = []

    /// An empty body with a random boundary.
    public init(boundary: String = "----petspot-test-\(UInt32.random(in: 0...UInt32.max))") {
        self.boundary = boundary
    }

    /// The `Content-Type` header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field.
    public mutating func field(_ name: String, _ value: String) {
        parts += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    /// Adds a file part (an empty `fileName` and no bytes is what a browser sends for an empty file input).
    public mutating func file(_ name: String, fileName: String, contentType: String = "application/octet-stream", bytes: [UInt8]) {
        parts += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\n".utf8)
        parts += Array("Content-Type: \(contentType)\r\n\r\n".utf8)
        parts += bytes
        parts += Array("\r\n".utf8)
    }

    /// The whole body, closing boundary included.
    public var body: Data { Data(parts + Array("--\(boundary)--\r\n".utf8)) }
}

/// A POST over URLSession (redirects not followed).
public func post(
    _ url: URL,
    body: Data,
    contentType: String,
    headers: [String: String] = [:],
    session: URLSession = TestSessions.plain
) async throws -> Fetched {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.httpBody = body
    request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return try await send(request, session: session)
}
