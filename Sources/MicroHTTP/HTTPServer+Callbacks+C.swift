internal import CMicroHTTPD
import Foundation
import HTTPTypes
import Logging
import Synchronization

// The C callbacks libmicrohttpd calls on its own threads. They live in this file, outside any
// actor, because callbacks written in top-level main.swift code are MainActor-isolated and crashed
// with SIGILL when called from a libmicrohttpd thread (docs/transport.md "Traps").

/// `MHD_AccessHandlerCallback`: called several times per request on the connection's thread.
let accessHandlerCallback: MHD_AccessHandlerCallback = {
    cls,
    connection,
    url,
    method,
    _,
    uploadData,
    uploadDataSize,
    requestContext in
    guard let cls, let connection, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handleCall(
        connection: connection,
        url: url,
        method: method,
        uploadData: uploadData,
        uploadDataSize: uploadDataSize,
        requestContext: requestContext
    )
}

/// `MHD_RequestCompletedCallback`: releases the per-request context and restarts the header
/// deadline for the connection's next request.
let requestCompletedCallback:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode
    ) -> Void = { cls, connection, requestContext, _ in
        guard let cls, let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        // Ownership: balances the passRetained of the first handler call.
        Unmanaged<RequestContext>.fromOpaque(raw).release()
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        server.inFlight.subtract(1, ordering: .sequentiallyConsistent)
        if let watch = server.watch, let connection, let entry = ConnectionWatch.entry(of: connection) {
            watch.requestFinished(entry)
        }
    }

/// `MHD_UnescapeCallback` that leaves the text as it is: `PercentDecoding` decodes in Swift,
/// where an encoded NUL can be refused instead of truncating the C string.
let identityUnescapeCallback:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?
    ) -> Int = { _, _, text in
        guard let text else { return 0 }
        return strlen(text)
    }

extension HTTPServer {
    /// One call of the access handler; see the phases below.
    func handleCall(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>?,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // Phase 1, first call (headers only): create the context. Queueing here would make
        // libmicrohttpd 0.9.75 answer `Connection: close` (docs/transport.md "Traps").
        guard let raw = requestContext.pointee else {
            let context = RequestContext(
                method: method.map { String(cString: $0) } ?? "",
                rawPath: url.map { String(cString: $0) } ?? "/"
            )
            requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
            inFlight.add(1, ordering: .sequentiallyConsistent)
            // The headers are in: the header deadline stops until this request is answered.
            if watch != nil, let entry = ConnectionWatch.entry(of: connection) { ConnectionWatch.headersArrived(entry) }
            if !accepting.load(ordering: .sequentiallyConsistent) {
                var response = serverAnswer(503, "The server is shutting down.", connection: connection, context: context)
                response.headers[.connection] = "close"
                return queue(response, on: connection, method: context.method)
            }
            if context.method != "GET" && context.method != "HEAD" {
                return startBody(connection: connection, context: context)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        // A piece of the body: to the reader of an accepted body; a GET's or HEAD's is discarded.
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            if let reader = context.bodyReader, let uploadData { reader.consume(uploadData, count: uploadDataSize.pointee) }
            uploadDataSize.pointee = 0
            return .YES
        }
        // Phase 3, after resume: the response is ready.
        if context.started.load(ordering: .acquiring) {
            guard let response = context.response.withLock({ $0 }) else { return .NO }
            return queue(response, on: connection, method: context.method)
        }
        // Phase 2, request complete: build the value-type request and call the handler once.
        context.started.store(true, ordering: .releasing)
        var body = RequestBody.none
        if let reader = context.bodyReader {
            // The whole body is in: the deadline for it ends (the answer has none).
            if watch != nil, let entry = ConnectionWatch.entry(of: connection) { ConnectionWatch.headersArrived(entry) }
            switch reader.finish() {
            case .success(let read): body = read
            case .failure(let problem):
                var response = configuration.bodyRefusal(problem, context.head ?? head(of: connection, context: context))
                response.headers[.connection] = "close"
                return queue(response, on: connection, method: context.method)
            }
        }
        // An answer the application prepared for this request: no Request, no handler.
        if context.bodyReader == nil, let preparedResponses, let url,
            let sent = preparedResponses.answer(RawRequest(connection: connection, url: url, method: context.requestMethod))
        {
            return sent.queued ? .YES : .NO
        }
        var request: Request
        switch makeRequest(connection: connection, url: url, context: context) {
        case .success(let made):
            request = made
            request.body = body
        case .failure(.malformed):
            return queue(
                serverAnswer(400, "The request URL is malformed.", connection: connection, context: context),
                on: connection,
                method: context.method
            )
        case .failure(.tooLong):
            return queue(
                serverAnswer(414, "The address is too long.", connection: connection, context: context),
                on: connection,
                method: context.method
            )
        }
        // One call of the application's handler: the answer now, on this thread (no suspend, no
        // task), or work that waits, with the connection suspended until its answer is ready.
        let work: @Sendable () async throws -> Response
        switch handler(request) {
        case .now(let response):
            return queue(response, on: connection, method: context.method)
        case .later(let later):
            work = later
        }
        let parked = SuspendedRequest(context: context, connection: connection, server: self, headers: request.headers)
        suspended.withLock { $0[ObjectIdentifier(context)] = parked }
        MHD_suspend_connection(connection)
        Task {
            let response: Response
            do {
                response = try await work()
            } catch {
                logger.error("handler failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
                let made = ServerMadeAnswer(
                    status: 500,
                    message: "Something went wrong on our side.",
                    method: request.method.rawValue,
                    rawPath: request.rawPath,
                    headers: request.headers
                )
                var failed = configuration.errorResponse(made)
                configuration.finishServerAnswer(&failed, made)
                response = failed
            }
            parked.finish(with: response)
        }
        return .YES
    }

    /// Why a request could not be made.
    enum RequestProblem: Error {
        /// The path or a query item is not valid percent-encoded UTF-8, or holds a NUL (400).
        case malformed
        /// Path and query are longer than `maxTargetBytes` (414).
        case tooLong
    }

    /// Copies method, path, query, headers and peer address out of libmicrohttpd into a `Request`.
    private func makeRequest(connection: OpaquePointer, url: UnsafePointer<CChar>?, context: RequestContext) -> Result<Request, RequestProblem> {
        let collector = ValueCollector()
        let collectorPointer = Unmanaged.passUnretained(collector).toOpaque()
        MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectValue, collectorPointer)
        // The target as sent: the path, then `?`, `=` and `&` around the raw query items.
        let targetBytes = collector.pairs.reduce(context.rawPath.utf8.count) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
        guard targetBytes <= configuration.maxTargetBytes else { return .failure(.tooLong) }
        var query: [(name: String, value: String)] = []
        query.reserveCapacity(collector.pairs.count)
        for pair in collector.pairs {
            guard let name = PercentDecoding.decode(pair.name), let value = PercentDecoding.decode(pair.value)
            else { return .failure(.malformed) }
            query.append((name: name, value: value))
        }
        guard let path = PercentDecoding.decode(context.rawPath) else { return .failure(.malformed) }
        collector.pairs.removeAll(keepingCapacity: true)
        let (headers, authority) = collectHeaders(connection, into: collector)
        let peer = petspot_mhd_client_address(connection)
        let client = peer.flatMap { SocketAddress.text(of: $0) }
        let clientPort = peer.flatMap { SocketAddress.port(of: $0) }
        // Written as `RawRequest.withTarget` writes it, so the two agree byte for byte.
        let rawTarget = url.flatMap { RequestTarget.text(connection: connection, url: $0, capacity: targetBytes) } ?? context.rawPath
        var request = Request(
            method: context.requestMethod,
            path: path,
            rawPath: context.rawPath,
            query: QueryItems(query),
            headers: headers,
            authority: authority,
            clientAddress: client,
            clientPort: clientPort,
            rawTarget: rawTarget
        )
        request.decided = context.decided
        return .success(request)
    }

    /// The request's header fields, and its `Host` as the authority (swift-http-types keeps HTTP/1.1's
    /// Host out of the fields). A name that is not an RFC 9110 token cannot be looked up: left out.
    func collectHeaders(_ connection: OpaquePointer, into collector: ValueCollector = ValueCollector()) -> (HTTPFields, String?) {
        MHD_get_connection_values(connection, .HEADER_KIND, collectValue, Unmanaged.passUnretained(collector).toOpaque())
        var headers = HTTPFields()
        var authority: String?
        headers.reserveCapacity(collector.pairs.count)
        for pair in collector.pairs {
            guard let name = HTTPField.Name(pair.name) else { continue }
            if name.canonicalName == "host" {
                authority = authority ?? pair.value
                continue
            }
            headers.append(HTTPField(name: name, value: pair.value))
        }
        return (headers, authority)
    }

    /// The configuration's answer for a request the server answers itself, rendered once from the
    /// request's headers and finished by the application.
    func serverAnswer(_ status: HTTPResponse.Status, _ message: String, connection: OpaquePointer, context: RequestContext) -> Response {
        let made = ServerMadeAnswer(
            status: status,
            message: message,
            method: context.method,
            rawPath: context.rawPath,
            headers: collectHeaders(connection).0
        )
        var response = configuration.errorResponse(made)
        configuration.finishServerAnswer(&response, made)
        return response
    }

    /// Turns a `Response` into an `MHD_Response` and queues it.
    func queue(_ response: Response, on connection: OpaquePointer, method: String) -> MHD_Result {
        guard let mhdResponse = NativeResponse.make(from: response) else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        return MHD_queue_response(connection, UInt32(clamping: response.status.code), mhdResponse)
    }
}

/// Collects key/value pairs from `MHD_get_connection_values` (used only during one handler call).
final class ValueCollector {
    var pairs: [(name: String, value: String)] = []
}

/// `MHD_KeyValueIterator` appending to a `ValueCollector`; a key without value gives "".
let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.pairs.append((name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
    return .YES
}
