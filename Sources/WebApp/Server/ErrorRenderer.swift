import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain

/// The one writer of errors (`HTTPError`): an error page in the visitor's language for page routes,
/// the API's JSON error for API routes (`RouteRule.Format`), the server's own answers too
/// (`serverAnswer`, MicroHTTP's `errorResponse` hook), each written once, with `Retry-After`,
/// `Allow` and `Cache-Control: no-store` (an error belongs to one request: never kept, by the
/// server or by anyone else). The request id is in the API's body, and in `X-Request-Id` as on every
/// answer (`Pipeline.finish`; `serverAnswer` for the server's own) (docs/architecture.md "Errors").
struct ErrorRenderer: Sendable {
    let site: SiteContext

    /// `error` for `request` in `format`.
    func response(_ error: HTTPError, format: RouteRule.Format, for request: Request, requestID: String) -> Response {
        var response: Response
        switch format {
        case .page: response = page(error, for: request)
        case .api: response = json(error, requestID: requestID)
        }
        if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        if let allow = error.allow ?? (error.status == 405 ? RouteRule.page.allow : nil) { response.headers[.allow] = allow }
        // `no-store` and the security headers: the header step, here because the server's own
        // answers (`serverAnswer`) do not pass through the pipeline.
        AnswerHeaders.finish(&response, cache: .noStore)
        return response
    }

    /// An answer the server made itself (MicroHTTP's `errorResponse`): the route's format when the
    /// path names one, else the API's below `/api/`; the page in the language of its headers.
    func serverAnswer(_ answer: ServerMadeAnswer) -> Response {
        let path = answer.rawPath.removingPercentEncoding
        let route = path.flatMap(Route.init(path:))
        let format = Route.errorFormat(path: answer.rawPath, route: route)
        let request = Request(
            method: HTTPRequest.Method(answer.method) ?? .get,
            path: path ?? "/",
            rawPath: answer.rawPath,
            headers: answer.headers,
            authority: nil,
            clientAddress: nil
        )
        var error = HTTPError.serverMade(answer.status, method: answer.method)
        // The request's query was not read: the language is the headers' own.
        error.location = .unknown(PageLanguage.fromHeader(request))
        let requestID = RequestID.choose(from: answer.requestIDHeader)
        var made = response(error, format: format, for: request, requestID: requestID)
        // The same id in the API's body, the header and the log line (`finishServerAnswer`).
        made.headers.append(HTTPField(name: .xRequestID, value: requestID))
        return made
    }

    /// The API's body: `{"error":{"code","message","requestId","field"?}}` with the status, the
    /// backend's error body (docs/upstream.md §1): `requestId` is this request's `X-Request-Id`, so
    /// a client's log line leads to ours and on to the upstream's.
    private func json(_ error: HTTPError, requestID: String) -> Response {
        let api = error.api ?? HTTPError.serverAPI(error.status)
        let message = text(api.message, site.renderer.texts(.standard))
        let body = AnnouncementJSON.encodeError(code: api.code, message: message, requestID: requestID, field: api.field)
        return Response.json(Array(body), status: error.status)
    }

    /// The error page (docs/upstream.md §4 "Errors the visitor can see"): a heading by status, the
    /// message, and a retry link when the error has one, in the language of the visitor's state
    /// (its `lang`, else `Accept-Language`); the language switch and alternates lead to the same page.
    private func page(_ error: HTTPError, for request: Request) -> Response {
        let language = error.location?.language ?? (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let location = error.location ?? .unknown(language)
        let texts = site.renderer.texts(language)
        let values = error.values.map { ($0.0, text($0.1, texts)) }
        let message = texts.text(error.key ?? HTTPError.serverText(error.status), count: error.count, values: values)
        let heading: String
        switch error.status {
        case 400: heading = texts(.errorHeading400)
        case 404: heading = texts(.errorHeading404)
        case 405: heading = texts(.errorHeading405)
        case 502, 504: heading = texts(.errorHeading502)
        case 503: heading = texts(.errorHeading503)
        default: heading = texts(.errorHeadingOther)
        }
        let model = ErrorPageModel(
            layout: site.layout(
                title: texts(.pageTitle, ("title", heading)),
                description: message,
                canonicalPath: nil,
                location: location,
                pageURL: error.pageURL ?? LayoutBuilder.sameURL(request)
            ),
            status: error.status.code,
            heading: heading,
            message: message,
            retryURL: error.retryURL,
            listURL: QueryString.url(Route.list.path, location.linkItems),
            homeURL: QueryString.url(Route.landing.path, location.linkItems)
        )
        return site.renderer.page(model, template: "error", language: language, status: error.status)
    }

    private func text(_ value: HTTPError.Value, _ texts: Texts) -> String {
        switch value {
        case .plain(let text): text
        case .text(let key, let values): texts.text(key, count: nil, values: values)
        }
    }
}
