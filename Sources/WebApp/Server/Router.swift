import MicroHTTP
import PetAPIClient

/// Dispatches a request to its handler by `Route`.
struct Router: Sendable {
    let site: SiteContext
    let staticFiles: StaticFiles
    let pages: PageHandlers
    let api: AnnouncementsAPI
    let images: ImageProxy
    let gateway: AnnouncementGateway
    let metrics: Metrics
    /// `/readyz` is ready when the upstream answered within this window (or the cache is warm).
    let readinessWindow: Duration

    /// The route's metric name and the response.
    func respond(to request: Request, requestID: String) async -> (String, Response) {
        guard let route = Route(path: request.path) else {
            return ("not_found", site.errorPage(status: 404, message: "There is no page at this address."))
        }
        let response: Response
        switch route {
        case .landing:
            response = await pages.landing(request, requestID: requestID)
        case .list:
            response = await pages.list(request, requestID: requestID)
        case .details(let id):
            response = await pages.details(request, id: id, requestID: requestID)
        case .legacyList:
            response = Router.redirect(to: Route.list.path, query: request)
        case .legacyDetails(let id):
            response = Router.redirect(to: Route.details(id: id).path, query: request)
        case .image(let path):
            response = await images.respond(request, path: path, requestID: requestID) { status, message in
                site.errorPage(status: status, message: message)
            }
        case .staticFile(let path):
            response = staticFiles.response(for: path, request: request)
                ?? site.errorPage(status: 404, message: "There is no file at this address.")
        case .favicon:
            response = staticFiles.response(for: "favicon.svg", request: request)
                ?? site.errorPage(status: 404, message: "There is no file at this address.")
        case .apiList:
            response = await api.list(request, requestID: requestID)
        case .apiDetails(let id):
            response = await api.details(request, id: id, requestID: requestID)
        case .healthz:
            response = Router.noStore(.text("ok\n"))
        case .readyz:
            response = await readiness(requestID: requestID)
        case .metrics:
            response = Router.noStore(.text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8"))
        }
        return (route.metricName, response)
    }

    /// Ready when the upstream answered recently (or the cache is warm); otherwise one probe call.
    private func readiness(requestID: String) async -> Response {
        if gateway.answeredRecently(within: readinessWindow) {
            return Router.noStore(.text("ready\n"))
        }
        do {
            _ = try await gateway.list(near: nil, rangeKm: nil, requestID: requestID)
            return Router.noStore(.text("ready\n"))
        } catch {
            return Router.noStore(.text("not ready: the upstream is not answering\n", status: 503))
        }
    }

    /// A 301 to `path`, keeping the query string (old links keep their filters).
    static func redirect(to path: String, query request: Request) -> Response {
        var response = Response(status: 301)
        response.headers["Location"] = QueryString.url(path, keeping: request.query)
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response
    }

    /// Marks a response as never cached (health, metrics).
    static func noStore(_ response: Response) -> Response {
        var copy = response
        copy.headers["Cache-Control"] = "no-store"
        return copy
    }
}
