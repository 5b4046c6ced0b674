import Foundation
import HTTPTypes
import MicroHTTP

/// Which requests may send a body, decided from the head before any body byte is read
/// (MicroHTTP's `bodyPolicy`; docs/report-flow.md "Abuse"): the routes whose rule declares a body
/// (`RouteRule`: the report form and the two API writes), within its limits; a write from another
/// site's page is refused (403) and nothing is sent upstream; every other method and path gets the
/// site's one 405 with `Allow` (`HTTPError.methodNotAllowed`); each written by `ErrorRenderer`
/// in the route's format.
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
            let error = HTTPError.methodNotAllowed(head.method, route: route)
            let format = Route.errorFormat(path: head.path, route: route)
            // Counted as the server's own answer, as every refused method was before bodies existed.
            return .refuse(finish(render(error, format: format, head, requestID), head, "server", requestID))
        }
        // The one-click stop of a mail (RFC 8058) comes from the mail provider, not our pages: its token
        // alone authorises it, so it is the one write the cross-site check lets through.
        if route.kind != .alertStop, identity.isCrossSite(headers: head.headers, authority: head.authority) {
            let error = HTTPError(403, .reportCrossSite, api: .init(code: "FORBIDDEN", message: "Writes from another site are not accepted."))
            return .refuse(finish(render(error, format: route.rule.format, head, requestID), head, route.metricName, requestID))
        }
        guard route.rule.takes(contentType: head.headers[.contentType]) else {
            let error = HTTPError(
                415,
                .reportNotAForm,
                api: .init(code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the photo as multipart/form-data.")
            )
            return .refuse(finish(render(error, format: route.rule.format, head, requestID), head, route.metricName, requestID))
        }
        // The route and the request id go with the body to the handler: the pipeline parses neither again.
        return .accept(limits, decided: HeadDecision(route: route, requestID: requestID))
    }

    /// The answer for an accepted body that could not be read whole.
    func refusal(_ problem: BodyProblem, _ head: RequestHead) -> Response {
        let requestID = RequestID.choose(from: head.headers[.xRequestID])
        let route = head.path.flatMap(Route.init(path:))
        let error: HTTPError =
            switch problem {
            case .tooLarge: HTTPError(413, .reportTooLarge, api: .init(code: "PAYLOAD_TOO_LARGE", message: "The request body is too large."))
            case .malformed: HTTPError(400, .reportUnreadable, api: .init(code: "INVALID_BODY", message: "The request body could not be read."))
            case .storageFailed:
                HTTPError(500, .errorInternal, api: .init(code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side."))
            }
        let format = Route.errorFormat(path: head.path, route: route)
        return finish(render(error, format: format, head, requestID), head, route?.metricName ?? "not_found", requestID)
    }

    /// `error` in `format`, for the head's request (a page's language comes from `lang` and `Accept-Language`).
    private func render(_ error: HTTPError, format: RouteRule.Format, _ head: RequestHead, _ requestID: String) -> Response {
        let request = Request(
            method: .post,
            path: head.path ?? "/",
            headers: head.headers,
            authority: head.authority,
            clientAddress: head.clientAddress
        )
        return ErrorRenderer(site: site).response(error, format: format, for: request, requestID: requestID)
    }
}

/// What the head of a request decided (`WritePolicy.decide`), carried to the handler with its body
/// (`MicroHTTP.Request.decided`): the pipeline takes the route and the request id from it.
struct HeadDecision: Sendable {
    let route: Route
    let requestID: String
}

extension RouteRule {
    /// The limits of an accepted body.
    var limits: BodyLimits? {
        switch body {
        case nil: nil
        case .json?:
            BodyLimits(maxBytes: Limits.jsonWriteBytes, maxFieldBytes: Limits.jsonWriteBytes, deadline: Limits.jsonWriteDeadline)
        case .form?:
            BodyLimits(
                maxBytes: ReportPhotos.maxUploadBytes + ReportPhotos.formOverheadBytes,
                maxFieldBytes: Limits.formFieldBytes,
                deadline: Limits.uploadDeadline
            )
        }
    }
}
