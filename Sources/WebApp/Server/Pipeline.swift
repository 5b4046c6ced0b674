import Foundation
import Logging
import MicroHTTP

/// What wraps every request (style.md "middleware is function wrapping"): a request id, the
/// router, security headers, one log line and the metrics.
struct Pipeline: Sendable {
    let router: Router
    let metrics: Metrics
    let logger: Logger

    /// Answers one request.
    func handle(_ request: Request) async -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        let requestID = RequestID.choose(from: request.headers["X-Request-Id"])
        let (routeName, routed) = await router.respond(to: request, requestID: requestID)
        var response = routed
        response.headers["X-Request-Id"] = requestID
        SecurityHeaders.apply(to: &response)
        let elapsed = clock.now - started
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
