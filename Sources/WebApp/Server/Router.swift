import HTTPTypes
internal import ImageResizer
import MicroHTTP
import PetAPIClient

/// Gives a request's plan (`RoutePlan`) from its route's entry of the route table (`RouteTable`): what
/// it needs and how it answers; holds what the handlers of the table use.
struct Router: Sendable {
    let site: SiteContext
    let staticFiles: StaticFiles
    let pages: PageHandlers
    let api: AnnouncementsAPI
    let images: ImageProxy
    /// Map tiles through our cache.
    let tiles: TileProxy
    let gateway: AnnouncementGateway
    /// `/metrics`, with the gauges it reads at scrape time.
    let metricsEndpoint: MetricsEndpoint
    /// `/readyz` is ready when the upstream answered within this window (or the cache is warm).
    let readinessWindow: Duration
    /// The report flow's pages (docs/report-flow.md).
    let reports: ReportHandlers
    /// The JSON API's writes.
    let writes: AnnouncementWrites
    /// E-mail alerts' pages (docs/alerts.md).
    let alerts: AlertHandlers
    /// Sightings and the owner's page (docs/sightings.md).
    let sightings: SightingHandlers
    /// Writes every plan's error in its route's format.
    var errors: ErrorRenderer { ErrorRenderer(site: site) }

    /// The route's metric name, the format of its errors and its plan for this request, from its entry of
    /// the route table (`RouteTable`): `route` is the one the head of the request parsed (`HeadDecision`),
    /// so nothing is parsed twice; the plan's answers are under the entry's privacy (`RouteEntry.Privacy`).
    func plan(for request: Request, route: Route?, requestID: String) -> (String, RouteRule.Format, RoutePlan) {
        guard let route else {
            // A path the site does not have: the one 404, in the format `Route.errorFormat` gives it.
            return ("not_found", Route.errorFormat(path: request.path, route: nil), .failed(HTTPError(404, .errorNoPage)))
        }
        let entry = route.entry
        // The rule decides the methods (`WritePolicy` refuses a body the rule does not take before
        // reading it; this answers the rest, e.g. a GET of the photo upload).
        guard entry.rule.accepts(request.method) else {
            return (entry.metricName, entry.rule.format, .failed(.methodNotAllowed(request.method.rawValue, route: route)))
        }
        let plan = handle(route, request, requestID: requestID)
        return (entry.metricName, entry.rule.format, entry.privacy.policy.map(plan.under) ?? plan)
    }

    /// A photo through the proxy, at the width and format the query asks for.
    func image(_ request: Request, path: String, requestID: String) -> RoutePlan {
        guard let variant = PhotoVariant(parameter: request.query["w"]) else {
            let widths = PhotoVariant.allowedWidths.sorted().map(String.init).joined(separator: ", ")
            var error = HTTPError(400, .errorParameter, ("name", "w"))
            error.values.append(("reason", .text(.queryWidth, [("widths", widths)])))
            return .failed(error)
        }
        // `format=jpeg`: the mails' photos, for clients that read no WebP whatever they accept (docs/alerts.md).
        let format = request.query["format"] == "jpeg" ? PhotoFormat.jpeg : PhotoFormat.preferred(accept: request.headers[.accept])
        return .needs(images.need(path: path, variant: variant, format: format, requestID: requestID)) { [images] outcome throws(HTTPError) in
            try images.answer(outcome, request: request)
        }
    }

    /// A file of `Public/`, or its 404.
    func staticFile(_ path: String, request: Request) -> RoutePlan {
        staticFiles.reply(for: path, request: request).map(RoutePlan.answer) ?? .failed(HTTPError(404, .errorNoFile))
    }

    /// Ready when the upstream answered recently (or the cache is warm); otherwise one probe call.
    func readiness(requestID: String) async -> Response {
        if gateway.answeredRecently(within: readinessWindow) {
            return .text("ready\n")
        }
        do {
            _ = try await gateway.snapshot(requestID: requestID)
            return .text("ready\n")
        } catch {
            return .text("not ready: the upstream is not answering\n", status: 503)
        }
    }

    /// A 301 to `path`, keeping the query string (old links keep their filters); browsers may keep it a day.
    static func redirect(to path: String, query request: Request) -> Reply {
        var response = Response(status: 301)
        response.headers[.location] = QueryString.url(path, keeping: request.query)
        return Reply(response, cache: .lasting(seconds: 86400))
    }
}
