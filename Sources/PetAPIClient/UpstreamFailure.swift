import HTTPTypes

/// Why an upstream call gave no usable data; each case maps to one visitor-facing status
/// (docs/upstream.md §4 "Errors the visitor can see"). `detail` is for logs only, never for pages.
public enum UpstreamFailure: Error, Sendable, Equatable {
    /// Connection refused, DNS failure, connection reset before an answer.
    case unreachable(detail: String)
    /// No complete answer within the configured timeout.
    case timeout
    /// The upstream answered with a status we cannot use (5xx, 400, …).
    case badStatus(HTTPResponse.Status, upstreamRequestID: String?)
    /// The body was not what was promised: not JSON, no list array, truncated, wrong content type, too large.
    case malformedBody(detail: String, upstreamRequestID: String?)
    /// The body was larger than the configured limit (`limitBytes`): a setting, not a fault of the data.
    case bodyTooLarge(limitBytes: Int, upstreamRequestID: String?)
    /// Too many details calls are already in flight (a flood of random ids must not
    /// become a flood upstream); the visitor is asked to retry.
    case busy
    /// The upstream said 404.
    case notFound
    /// A details body decoded but the announcement is invalid (docs/upstream.md §2: details → error).
    case invalidAnnouncement(detail: String)

    /// The status our server answers with: 504 for timeouts, 404 for not found, else 502.
    public var visitorStatus: HTTPResponse.Status {
        switch self {
        case .timeout: return .gatewayTimeout
        case .notFound: return .notFound
        case .busy: return .serviceUnavailable
        default: return .badGateway
        }
    }

    /// A short label for metrics (`reason` label).
    public var metricLabel: String {
        switch self {
        case .unreachable: return "unreachable"
        case .timeout: return "timeout"
        case .badStatus: return "bad_status"
        case .malformedBody: return "malformed_body"
        case .bodyTooLarge: return "body_too_large"
        case .busy: return "busy"
        case .notFound: return "not_found"
        case .invalidAnnouncement: return "invalid_announcement"
        }
    }

    /// The upstream's `request-id`, when it sent one (logged with failures, docs/upstream.md §5).
    public var upstreamRequestID: String? {
        switch self {
        case .badStatus(_, let id), .malformedBody(_, let id), .bodyTooLarge(_, let id): return id
        default: return nil
        }
    }
}
