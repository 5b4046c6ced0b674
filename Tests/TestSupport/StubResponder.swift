import HTTPTypes
import MicroHTTP

/// Builds the stub's answer to one request from a snapshot of its state: the programmed content
/// with the backend's headers (docs/upstream.md §1), bent by the current fault.
struct StubResponder: Sendable {
    let state: StubState

    /// Answers one request.
    func respond(to request: Request) async -> Response {
        let snapshot = state.record(request)
        let requestID = StubHTTP.newRequestID()
        var response: Response
        switch snapshot.fault {
        case .none:
            response = normal(request, snapshot, requestID: requestID)
        case .slow(let delay):
            // A cancelled sleep (server shutting down) still answers; the client may be gone anyway.
            try? await Task.sleep(for: delay)
            response = normal(request, snapshot, requestID: requestID)
        case .status(let status):
            response = StubHTTP.error(
                status: HTTPResponse.Status(code: status),
                code: Self.code(for: status),
                message: Self.message(for: status),
                requestID: requestID
            )
        case .malformedJSON:
            response = .json(Array(#"{"data":[{"id":"1","petName":"Rex",,"species":}"#.utf8))
        case .truncatedBody:
            response = normal(request, snapshot, requestID: requestID)
            response.closeAfterBodyBytes = response.body.count / 2
        case .hugeBody(let size):
            response = .json(StubHTTP.hugeList(bytes: size))
        case .wrongContentType:
            response = .html(
                "<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title></head>"
                    + "<body><h1>Please sign in</h1></body></html>"
            )
        case .nullData:
            response = .json(Array(#"{"data":null}"#.utf8))
        }
        response.headers[.backendRequestID] = requestID
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }

    /// The programmed content, with ETag and 304 when enabled.
    private func normal(_ request: Request, _ snapshot: StubState.Values, requestID: String) -> Response {
        let path =
            request.path.count > 1 && request.path.hasSuffix("/")
            ? String(request.path.dropLast()) : request.path
        let prefix = "/api/v1/announcements/"
        let notFound = StubHTTP.error(status: 404, code: "NOT_FOUND", message: "Resource not found", requestID: requestID)
        let response: Response
        if request.method == .post {
            guard let write = snapshot.writes[path] else { return notFound }
            return .json(Array(write.body.utf8), status: HTTPResponse.Status(code: write.status))
        }
        if path == "/api/v1/announcements" {
            response = .json(Array(snapshot.list.utf8))
        } else if path.hasPrefix(prefix) {
            let id = String(path.dropFirst(prefix.count))
            guard let details = snapshot.details[id] else {
                return StubHTTP.error(
                    status: 404,
                    code: "NOT_FOUND",
                    message: "Announcement not found",
                    requestID: requestID
                )
            }
            response = .json(Array(details.utf8))
        } else if path.hasPrefix("/images/") || snapshot.images[path] != nil {
            // Photos, and any other programmed path (a stub tile server's `/tiles/z/x/y.png`).
            guard let image = snapshot.images[path] else { return notFound }
            var fields = image.headers
            fields[.contentType] = image.contentType
            response = Response(headers: fields, body: image.bytes)
        } else if path == "/api/health" {
            response = .json(Array(#"{"status":"ok","timestamp":"2025-12-01T14:24:13.000Z"}"#.utf8))
        } else {
            return notFound
        }
        guard snapshot.etagsEnabled else { return response }
        return StubHTTP.withETag(response, for: request)
    }

    private static func code(for status: Int) -> String {
        switch status {
        case 400: "INVALID_PARAMETER"
        case 404: "NOT_FOUND"
        default: "INTERNAL_SERVER_ERROR"
        }
    }

    private static func message(for status: Int) -> String {
        switch status {
        case 400: "Invalid parameter"
        case 404: "Resource not found"
        case 503: "Service unavailable"
        default: "Internal server error"
        }
    }
}
