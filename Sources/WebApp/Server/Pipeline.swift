import Foundation
import HTTPTypes
import Logging
import MicroHTTP

/// What wraps every request (function wrapping, docs/style.md): one request id, the route's plan
/// (made once), its errors written in the route's format (`ErrorRenderer`), security headers, one
/// log line and the metrics.
struct Pipeline: Sendable {
    let router: Router
    let metrics: Metrics
    let logger: Logger
    /// Where answers the cache policy lets the server give again are kept (`CachePolicy.keptUntil`),
    /// and the request targets they are given for.
    let responses: ResponseCache?

    /// The server's one handler: the route's plan is made once; its answer is given at once on the
    /// server thread when what it needs is in memory (a kept page, a static file, a page made from
    /// the fresh snapshot, a warm photo), else after one wait, in a task.
    func handle(_ request: Request) -> Answer {
        let started = ContinuousClock.now
        // A write's route and id were decided from its head (`HeadDecision`); a GET's are decided here.
        let decided = request.decided as? HeadDecision
        let requestID = decided?.requestID ?? RequestID.choose(from: request.headers.value(.xRequestID))
        let route = decided?.route ?? Route(path: request.path)
        let (routeName, format, plan) = router.plan(for: request, route: route, requestID: requestID)
        do throws(HTTPError) {
            if let reply = try plan.now() {
                return .now(finish(reply, request: request, routeName: routeName, requestID: requestID, started: started))
            }
        } catch {
            let response = router.errors.response(error, format: format, for: request, requestID: requestID)
            return .now(finish(Reply(response), request: request, routeName: routeName, requestID: requestID, started: started))
        }
        return .later { [self] in
            let reply: Reply
            do throws(HTTPError) {
                reply = try await plan.later()
            } catch {
                reply = Reply(router.errors.response(error, format: format, for: request, requestID: requestID))
            }
            return finish(reply, request: request, routeName: routeName, requestID: requestID, started: started)
        }
    }

    /// Finishes an answer the server gave before reading a request's body (a 405, 403, 413 from
    /// `WritePolicy`) like every other: security headers, the request id, the log line, the metric.
    func finishEarly(_ response: Response, head: RequestHead, routeName: String, requestID: String) -> Response {
        let request = Request(
            method: HTTPRequest.Method(head.method) ?? .post,
            path: head.path ?? "/",
            rawPath: head.path ?? "/",
            headers: head.headers,
            authority: head.authority,
            clientAddress: head.clientAddress
        )
        return finish(Reply(response), request: request, routeName: routeName, requestID: requestID, started: ContinuousClock.now)
    }

    /// Security headers on the response (kept for the next request of this target when
    /// its `CachePolicy` lets the server reuse it, with its compressed forms), the representation the request's
    /// `Accept-Encoding` chooses or its 304 (`BodyCompression.answer`: the one place a 304 is
    /// decided, since the ETag depends on the coding), the request id, then the metrics and the log line.
    private func finish(_ reply: Reply, request: Request, routeName: String, requestID: String, started: ContinuousClock.Instant) -> Response {
        var response = reply.response
        // The one header step: the policy's `Cache-Control` (and `CDN-Cache-Control`), a public 200's
        // ETag, the security headers, before the answer is kept or compressed.
        AnswerHeaders.finish(&response, cache: reply.cache)
        var forms = reply.forms
        if let until = reply.keptUntil(method: request.method), let responses {
            if let entry = reply.kept {
                // A page of the response cache: this spelling of its URL is indexed to it.
                responses.index(entry, for: request, route: routeName, until: until)
            } else {
                // Made once here when the handler kept none (a photo: kept for its target alone).
                if forms == nil { forms = BodyCompression.forms(of: response, cache: reply.cache, level: BodyCompression.policy.kept) }
                responses.keep(response, forms: forms, for: request, route: routeName, until: until)
            }
        }
        let coding: ContentCoding
        (response, coding) = BodyCompression.answer(
            response,
            cache: reply.cache,
            forms: forms,
            acceptEncoding: request.headers.value(.acceptEncoding),
            ifNoneMatch: request.headers.value(.ifNoneMatch),
            ifModifiedSince: request.headers.value(.ifModifiedSince)
        )
        metrics.recordBodyBytes(coding, count: request.method == .head ? 0 : response.body.count)
        response.headers.append(HTTPField(name: .xRequestID, value: requestID))
        let elapsed = ContinuousClock.now - started
        AnswerRecord(metrics: metrics, logger: logger).record(
            route: routeName,
            status: response.status,
            requestID: requestID,
            method: request.method.rawValue,
            path: request.rawPath,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
        return response
    }
}

/// The metrics and the log line of one answer: the pipeline's, and those the response cache's hook gives.
struct AnswerRecord: Sendable {
    let metrics: Metrics
    let logger: Logger

    func record(route: String, status: HTTPResponse.Status, requestID: String, method: String, path: String, seconds: Double) {
        metrics.recordRequest(route: route, status: status, seconds: seconds)
        logger.info(
            "request",
            metadata: [
                "request_id": "\(requestID)",
                "method": "\(method)",
                "path": "\(AlertLinks.redacted(path))",
                "status": "\(status.code)",
                "duration_ms": "\(String(format: "%.2f", seconds * 1000))",
            ]
        )
    }
}
