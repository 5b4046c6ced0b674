import Foundation
import Logging
import MicroHTTP

/// What wraps every request (style.md "middleware is function wrapping"): a request id, the
/// router, security headers, one log line and the metrics.
struct Pipeline: Sendable {
    let router: Router
    let metrics: Metrics
    let logger: Logger

    /// Answers one request at once on the server thread when its answer is in hand (a kept page,
    /// a static file, a page made from the fresh snapshot); nil sends it to `handle`.
    func handleNow(_ request: Request) -> Response? {
        let started = ContinuousClock.now
        let requestID = RequestID.choose(from: request.headers["X-Request-Id"])
        guard let (routeName, routed) = router.respondNow(to: request, requestID: requestID) else { return nil }
        return finish(routed, request: request, routeName: routeName, requestID: requestID, started: started)
    }

    /// Answers one request, waiting for whatever it needs.
    func handle(_ request: Request) async -> Response {
        let started = ContinuousClock.now
        let requestID = RequestID.choose(from: request.headers["X-Request-Id"])
        let (routeName, routed) = await router.respond(to: request, requestID: requestID)
        return finish(routed, request: request, routeName: routeName, requestID: requestID, started: started)
    }

    /// Request id and security headers on the response, then the metrics and the log line.
    private func finish(_ routed: Response, request: Request, routeName: String, requestID: String, started: ContinuousClock.Instant) -> Response {
        var response = routed
        response.headers.add("X-Request-Id", requestID)
        SecurityHeaders.apply(to: &response)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.recordRequest(route: routeName, status: response.status, seconds: seconds)
        logger.info("request", metadata: [
            "request_id": "\(requestID)",
            "method": "\(request.method)",
            "path": "\(request.rawPath)",
            "status": "\(response.status)",
            "duration_ms": "\(String(format: "%.2f", seconds * 1000))",
        ])
        return response
    }
}
