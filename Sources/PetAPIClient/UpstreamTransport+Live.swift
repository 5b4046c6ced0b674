import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

extension UpstreamTransport {
    /// The live transport over AsyncHTTPClient: pooled keep-alive connections (measured about 4×
    /// URLSession's throughput inside our server, docs/platform.md "Upstream HTTP client").
    ///
    /// - Parameters:
    ///   - baseURL: the upstream's root, e.g. `http://localhost:3000`.
    ///   - connectTimeout: time to open a connection.
    /// - Returns: a transport that sends every request to `baseURL`'s host and port.
    public static func live(baseURL: URL, connectTimeout: Duration = .seconds(2)) -> UpstreamTransport {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(connectTimeout.milliseconds)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        )
        configuration.decompression = .disabled
        // A refused connection is "upstream down" (502) at once; retrying with backoff until the
        // deadline would turn it into a slow 504 (docs/upstream.md §4 error table).
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return UpstreamTransport(
            get: { (request: UpstreamRequest) async throws(UpstreamFailure) -> UpstreamResponse in
                try await perform(client: client, url: base + request.pathAndQuery, request: request)
            },
            shutdown: { try? await client.shutdown() }
        )
    }

    private static func perform(client: HTTPClient, url: String, request: UpstreamRequest) async throws(UpstreamFailure) -> UpstreamResponse {
        do {
            return try await withDeadline(request.timeout) {
                var outgoing = HTTPClientRequest(url: url)
                outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
                outgoing.headers.add(name: "Accept", value: "application/json, image/*;q=0.9")
                if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
                for field in request.headers { outgoing.headers.add(name: field.name.rawName, value: field.value) }
                let deadline = NIODeadline.now() + .milliseconds(request.timeout.milliseconds)
                let response = try await client.execute(outgoing, deadline: deadline)
                let declared = response.headers.first(name: "content-length").flatMap(Int.init)
                if let declared, declared > request.maxBodyBytes {
                    throw UpstreamFailure.bodyTooLarge(
                        limitBytes: request.maxBodyBytes,
                        upstreamRequestID: response.headers.first(name: "request-id")
                    )
                }
                // Read into one array sized by Content-Length: `collect` grew a buffer by doubling and the bytes were then
                // copied out of it, so a 28 MB list was held two or three times over at the refresh's peak
                // (docs/performance.md "Steady speed").
                var body: [UInt8] = []
                body.reserveCapacity(min(max(0, declared ?? 0), request.maxBodyBytes))
                for try await chunk in response.body {
                    guard body.count + chunk.readableBytes <= request.maxBodyBytes else {
                        throw UpstreamFailure.bodyTooLarge(
                            limitBytes: request.maxBodyBytes,
                            upstreamRequestID: response.headers.first(name: "request-id")
                        )
                    }
                    body.append(contentsOf: chunk.readableBytesView)
                }
                var headers = HTTPFields()
                for (name, value) in response.headers {
                    guard let name = HTTPField.Name(name) else { continue }
                    headers.append(HTTPField(name: name, value: value))
                }
                // Three digits on the wire; min keeps HTTPResponse.Status's precondition whatever the client hands over.
                return UpstreamResponse(
                    status: HTTPResponse.Status(code: min(999, Int(response.status.code)), reasonPhrase: response.status.reasonPhrase),
                    headers: headers,
                    body: body
                )
            }
        } catch let failure as UpstreamFailure {
            throw failure
        } catch {
            throw classify(error, maxBodyBytes: request.maxBodyBytes)
        }
    }

    /// Maps AsyncHTTPClient/NIO errors to the failure cases.
    static func classify(_ error: any Error, maxBodyBytes: Int) -> UpstreamFailure {
        if error is NIOTooManyBytesError {
            return .bodyTooLarge(limitBytes: maxBodyBytes, upstreamRequestID: nil)
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            case .connectTimeout: return .unreachable(detail: "connect timeout")
            case .remoteConnectionClosed: return .malformedBody(detail: "connection closed before the body ended", upstreamRequestID: nil)
            default: return .unreachable(detail: "\(clientError)")
            }
        }
        if error is CancellationError { return .timeout }
        let text = "\(error)"
        if text.contains("EOF") || text.contains("invalidEOFState") || text.contains("closed") {
            return .malformedBody(detail: "truncated body (\(text))", upstreamRequestID: nil)
        }
        return .unreachable(detail: text)
    }
}

/// Runs `operation`, failing with `UpstreamFailure.timeout` when it takes longer than `limit`
/// (the body read included, which AsyncHTTPClient's own deadline does not bound).
func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw UpstreamFailure.timeout
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw UpstreamFailure.timeout }
        return first
    }
}

extension Duration {
    /// Whole milliseconds, for NIO's TimeAmount.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
