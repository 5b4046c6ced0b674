import HTTPTypes
import MicroHTTP
import PetAPIClient

/// An answer that is not the one asked for, as a value: what went wrong (status, a text key and the
/// values of its slots, `Retry-After`), never how it is written. Handlers and needs throw it (their
/// plans are `throws(HTTPError)`: `RoutePlan`); `ErrorRenderer` writes it once, as an error page in
/// the visitor's language or as the API's JSON error, by the route's format (`RouteRule.Format`), so
/// no handler decides the form of its errors (docs/architecture.md "Errors").
struct HTTPError: Error, Sendable {
    /// A slot's value: a plain text, or a catalog text itself in the visitor's language.
    enum Value: Sendable {
        case plain(String)
        case text(TextKey, [(String, String)])
    }

    /// The API's body for this error (`{"error":{"code","message","field"?}}`, docs/openapi.yaml):
    /// its code and message (always English: the API speaks no page language), the backend's own
    /// where it has one.
    struct API: Sendable {
        let code: String
        let message: Value
        var field: String? = nil

        init(code: String, message: String, field: String? = nil) {
            self.init(code: code, message: .plain(message), field: field)
        }

        init(code: String, message: Value, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }

    let status: HTTPResponse.Status
    /// The page's message; nil: the status's own (`HTTPError.serverText`).
    var key: TextKey?
    var values: [(String, Value)] = []
    /// The number that chooses a counted message's plural form (`Texts.counted`).
    var count: Int? = nil
    /// Seconds for `Retry-After`.
    var retryAfter: Int? = nil
    /// The API's code and message; nil: the status's own (`HTTPError.serverAPI`).
    var api: API? = nil
    /// `Allow` of a 405.
    var allow: String? = nil
    /// The page's "Try again" link (the same page, or the page without what was wrong).
    var retryURL: String? = nil
    /// The visitor's state when the handler parsed it (language, location for the links); nil: the
    /// request's `lang`, else its `Accept-Language`.
    var location: VisitorLocation? = nil
    /// The failed page's URL for a visitor state (language switch, alternates); nil: the request's own.
    var pageURL: (@Sendable (VisitorLocation) -> String)? = nil

    /// An error with both forms: `key` (with plain `values`) on a page, `api` on the API.
    init(_ status: HTTPResponse.Status, _ key: TextKey?, _ values: (String, String)..., api: API? = nil) {
        self.status = status
        self.key = key
        self.values = values.map { ($0.0, .plain($0.1)) }
        self.api = api
    }

    /// An error only the API gives (its writes): a page shows the status's own text.
    static func api(_ status: HTTPResponse.Status, code: String, message: String, field: String? = nil) -> HTTPError {
        HTTPError(status, nil, api: API(code: code, message: message, field: field))
    }

    /// An answer the server makes itself (400 undecodable URL, 405, 414, 500, 503 stopping), from
    /// the status alone; `{method}` is the request's. Its page's links lead to the landing page.
    static func serverMade(_ status: HTTPResponse.Status, method: String) -> HTTPError {
        var error = HTTPError(status, serverText(status), ("method", method))
        error.pageURL = { QueryString.url(Route.landing.path, $0.linkItems) }
        return error
    }

    /// The page text of a status with none of its own.
    static func serverText(_ status: HTTPResponse.Status) -> TextKey {
        switch status {
        case 400: .errorBadURL
        case 405: .errorMethod
        case 414: .errorLongURL
        case 503: .errorStopping
        default: .errorInternal
        }
    }

    /// The API's code and message of a status with none of its own.
    static func serverAPI(_ status: HTTPResponse.Status) -> API {
        switch status.code {
        case 400: API(code: "INVALID_REQUEST", message: "The request URL is malformed.")
        case 405: API(code: "METHOD_NOT_ALLOWED", message: "This method is not allowed here.")
        case 414: API(code: "URI_TOO_LONG", message: "The address is too long.")
        case 503: API(code: "SERVICE_UNAVAILABLE", message: "The server is shutting down. Please try again shortly.")
        default: API(code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side.")
        }
    }

    /// A bad query parameter: the API names it in `field` (its reason in English, as the API speaks
    /// no page language); a page says it in the visitor's language.
    static func parameter(_ problem: QueryProblem) -> HTTPError {
        let reason = Value.text(problem.reason, [("name", problem.parameter)])
        var error = HTTPError(400, .errorParameter, api: API(code: "INVALID_PARAMETER", message: reason, field: problem.parameter))
        error.values = [("name", .plain(problem.parameter)), ("reason", reason)]
        return error
    }

    /// A bad query parameter of a page at `path`: its "Try again" leads to the same page (its other
    /// parameters kept) without location and without the bad parameter, in the page's language.
    static func badQuery(_ problem: LocatedProblem, path: String, query: QueryItems) -> HTTPError {
        let dropped: Set<String> = ["lat", "lng", "range", "location", "lang", problem.problem.parameter]
        let kept = query.items.filter { !dropped.contains($0.name) }.map { ($0.name, Optional($0.value)) }
        let language = problem.language
        let withoutLocation = query.items.filter { $0.name != "lang" && !["lat", "lng", "range", "location"].contains($0.name) }
            .map { ($0.name, Optional($0.value)) }
        return parameter(problem.problem).on(
            .unknown(language),
            retryURL: QueryString.url(path, kept + language.linkItems),
            pageURL: { QueryString.url(path, withoutLocation + $0.language.linkItems) }
        )
    }

    /// An upstream failure: its status by kind (`UpstreamFailure.visitorStatus`), its details only in the log.
    static func upstream(_ failure: UpstreamFailure) -> HTTPError {
        let api: API =
            switch failure {
            case .notFound: API(code: "NOT_FOUND", message: "Announcement not found.")
            case .busy: API(code: "SERVICE_BUSY", message: "Too many requests for announcements right now. Please try again shortly.")
            case .timeout: API(code: "UPSTREAM_TIMEOUT", message: "The announcements service did not answer in time. Please try again later.")
            case .invalidAnnouncement: API(code: "INVALID_UPSTREAM_DATA", message: "The announcement data is invalid.")
            default: API(code: "UPSTREAM_UNAVAILABLE", message: "Unable to load data. Please try again later.")
            }
        return HTTPError(failure.visitorStatus, .errorUpstream, api: api)
    }

    /// The write store is down or too slow: nothing was sent upstream, try again shortly (docs/replicas.md).
    /// On the report form and the photo form it is that form again with everything typed, its status,
    /// text and `Retry-After` taken from here (`ReportHandlers.storeDown`); on the API, this error.
    static let storeDown: HTTPError = {
        var error = HTTPError(
            503,
            .reportProblemStore,
            api: API(code: "SERVICE_UNAVAILABLE", message: "Reports cannot be accepted at the moment. Please try again later.")
        )
        error.retryAfter = Limits.storeRetryAfterSeconds
        return error
    }()

    /// The same error for a page with the visitor's state and links.
    func on(
        _ location: VisitorLocation,
        retryURL: String? = nil,
        pageURL: (@Sendable (VisitorLocation) -> String)? = nil
    ) -> HTTPError {
        var error = self
        error.location = location
        error.retryURL = retryURL ?? error.retryURL
        error.pageURL = pageURL ?? error.pageURL
        return error
    }
}

extension HTTPError {
    /// The one 405 of the site: `method` is not one `route` answers (nil: a path the site does not
    /// have, which answers GET and HEAD with its 404), with the route's `Allow`.
    static func methodNotAllowed(_ method: String, route: Route?) -> HTTPError {
        var error = HTTPError(
            405,
            .errorMethod,
            ("method", method),
            api: API(code: "METHOD_NOT_ALLOWED", message: "Method \(method) is not allowed here.")
        )
        error.allow = (route?.rule ?? .page).allow
        return error
    }
}
