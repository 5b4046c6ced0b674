import Foundation
import HTTPTypes
import MicroHTTP

/// Which requests may send a body, decided from the head before any body byte is read
/// (MicroHTTP's `bodyPolicy`; docs/report-flow.md "Abuse"): the routes whose rule declares a body
/// (`RouteRule`: the report form and the two API writes), within its limits; a write from another
/// site's page is refused (403) and nothing is sent upstream; every other method and path gets the
/// site's one 405 with `Allow` (`SiteContext.methodNotAllowed`).
struct WritePolicy: Sendable {
    let site: SiteContext
    let identity: ClientIdentity
    /// Finishes an answer given before the body (request id, security headers, log line, metric).
    let finish: @Sendable (_ response: Response, _ head: RequestHead, _ route: String, _ requestID: String) -> Response

    /// The decision for one request head, from the route's rule (`RouteRule`).
    func decide(_ head: RequestHead) -> BodyDecision {
        let requestID = RequestID.choose(from: head.headers[.xRequestID])
        let route = head.path.flatMap(Route.init(path:))
        guard head.method == "POST", let route, let limits = route.rule.limits else {
            let response = site.methodNotAllowed(head.method, route: route, path: head.path ?? "/", for: request(head), requestID: requestID)
            // Counted as the server's own answer, as every refused method was before bodies existed.
            return .refuse(finish(response, head, "server", requestID))
        }
        let isAPI = route.rule.format == .api
        if identity.isCrossSite(headers: head.headers, authority: head.authority) {
            let response =
                isAPI
                ? AnnouncementsAPI.error(403, code: "FORBIDDEN", message: "Writes from another site are not accepted.", requestID: requestID)
                : site.errorPage(status: 403, .reportCrossSite, for: request(head))
            return .refuse(finish(response, head, route.metricName, requestID))
        }
        guard route.rule.takes(contentType: head.headers[.contentType]) else {
            let response =
                isAPI
                ? AnnouncementsAPI.error(415, code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the photo as multipart/form-data.", requestID: requestID)
                : site.errorPage(status: 415, .reportNotAForm, for: request(head))
            return .refuse(finish(response, head, route.metricName, requestID))
        }
        return .accept(limits)
    }

    /// The answer for an accepted body that could not be read whole.
    func refusal(_ problem: BodyProblem, _ head: RequestHead) -> Response {
        let requestID = RequestID.choose(from: head.headers[.xRequestID])
        let route = head.path.flatMap(Route.init(path:))
        let isAPI = head.path?.hasPrefix("/api/") ?? false
        let response: Response
        switch (problem, isAPI) {
        case (.tooLarge, true):
            response = AnnouncementsAPI.error(413, code: "PAYLOAD_TOO_LARGE", message: "The request body is too large.", requestID: requestID)
        case (.tooLarge, false):
            response = site.errorPage(status: 413, .reportTooLarge, for: request(head))
        case (.malformed, true):
            response = AnnouncementsAPI.error(400, code: "INVALID_BODY", message: "The request body could not be read.", requestID: requestID)
        case (.malformed, false):
            response = site.errorPage(status: 400, .reportUnreadable, for: request(head))
        case (.storageFailed, true):
            response = AnnouncementsAPI.error(500, code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side.", requestID: requestID)
        case (.storageFailed, false):
            response = site.errorPage(status: 500, .errorInternal, for: request(head))
        }
        return finish(response, head, route?.metricName ?? "not_found", requestID)
    }

    /// A request value for the error pages (their language comes from `lang` and `Accept-Language`).
    private func request(_ head: RequestHead) -> Request {
        Request(method: .post, path: head.path ?? "/", headers: head.headers, authority: head.authority, clientAddress: head.clientAddress)
    }
}
