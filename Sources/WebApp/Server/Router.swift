import HTTPTypes
internal import ImageResizer
import MicroHTTP
import PetAPIClient

/// Parses a request's route once and gives its plan (`RoutePlan`): what it needs and how it
/// answers.
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
    /// Writes every plan's error in its route's format.
    var errors: ErrorRenderer { ErrorRenderer(site: site) }

    /// The route's metric name, the format of its errors and its plan for this request: the route,
    /// the query and the language are parsed here, once per request (`Pipeline.handle` runs the plan).
    func plan(for request: Request, requestID: String) -> (String, RouteRule.Format, RoutePlan) {
        guard let route = Route(path: request.path) else {
            // A path the site does not have is a page's 404, below `/api/` too.
            return ("not_found", .page, .failed(HTTPError(404, .errorNoPage)))
        }
        // The route's rule decides its methods (`WritePolicy` refuses a body the rule does not take
        // before reading it; this answers the rest, e.g. a GET of the photo upload).
        guard route.rule.accepts(request.method) else {
            return (route.metricName, route.rule.format, .failed(.methodNotAllowed(request.method.rawValue, route: route)))
        }
        let isPost = request.method == .post
        let plan: RoutePlan
        switch route {
        case .landing:
            plan = pages.landing(request, requestID: requestID)
        case .list:
            plan = pages.list(request, requestID: requestID)
        case .map:
            plan = pages.map(request, requestID: requestID)
        case .details(let id):
            plan = pages.details(request, id: id, requestID: requestID)
        case .feed:
            plan = pages.feed(request, requestID: requestID)
        case .poster(let id):
            plan = pages.poster(request, id: id, requestID: requestID)
        case .matches(let id):
            plan = pages.matches(request, id: id, requestID: requestID)
        case .matchesFeed(let id):
            plan = pages.matchesFeed(request, id: id, requestID: requestID)
        case .legacyList:
            plan = .answer(Router.redirect(to: Route.list.path, query: request))
        case .legacyDetails(let id):
            plan = .answer(Router.redirect(to: Route.details(id: id).path, query: request))
        case .image(let path):
            guard let variant = PhotoVariant(parameter: request.query["w"]) else {
                let widths = PhotoVariant.allowedWidths.sorted().map(String.init).joined(separator: ", ")
                var error = HTTPError(400, .errorParameter, ("name", "w"))
                error.values.append(("reason", .text(.queryWidth, [("widths", widths)])))
                plan = .failed(error)
                break
            }
            // `format=jpeg`: the mails' photos, for clients that read no WebP whatever they accept (docs/alerts.md).
            let format = request.query["format"] == "jpeg" ? PhotoFormat.jpeg : PhotoFormat.preferred(accept: request.headers[.accept])
            plan = .needs(images.need(path: path, variant: variant, format: format, requestID: requestID)) { [images] outcome throws(HTTPError) in
                try images.answer(outcome, request: request)
            }
        case .tile(let tile):
            plan = .needs(tiles.need(tile, requestID: requestID)) { [tiles] outcome throws(HTTPError) in
                Reply(try tiles.answer(outcome, request: request))
            }
        case .staticFile(let path):
            plan = staticFiles.reply(for: path, request: request).map(RoutePlan.answer) ?? .failed(HTTPError(404, .errorNoFile))
        case .favicon:
            plan = staticFiles.reply(for: "favicon.svg", request: request).map(RoutePlan.answer) ?? .failed(HTTPError(404, .errorNoFile))
        case .apiList where isPost:
            plan = RoutePlan.work { [writes] () async throws(HTTPError) in try await writes.create(request, requestID: requestID) }.under(.private)
        case .apiList:
            plan = api.list(request, requestID: requestID)
        case .apiPhotos(let id):
            plan = RoutePlan.work { [writes] () async throws(HTTPError) in try await writes.photo(request, id: id, requestID: requestID) }
                .under(.private)
        case .report:
            // Report pages are for their visitor only (`ReportHandlers.private`).
            let answer: RoutePlan =
                isPost
                ? .work { [reports, alerts] in
                    // "E-mail me possible matches" ticked on the form: the new report is followed (a confirmation first).
                    await alerts.followMatches(made: await reports.submit(request, requestID: requestID), request, requestID: requestID)
                }
                : .making { () throws(HTTPError) in try reports.form(request) }
            plan = answer.under(.private)
        case .reportPhoto:
            let answer: RoutePlan =
                isPost ? .work { [reports] in await reports.sendPhoto(request, requestID: requestID) } : .answer(reports.photoForm(request))
            plan = answer.under(.private)
        case .apiDetails(let id):
            plan = api.details(request, id: id, requestID: requestID)
        case .apiGeoJSON:
            plan = api.geoJSON(request, requestID: requestID)
        case .apiDocument:
            // docs/openapi.yaml as JSON (scripts/openapi.sh makes it), read at startup with the other
            // public files: ETag, 304 and its compressed forms come with it.
            plan =
                staticFiles.reply(for: AnnouncementsAPI.documentAsset, request: request).map(RoutePlan.answer)
                ?? .failed(.api(404, code: "NOT_FOUND", message: "The API document is not installed."))
        case .apiMatches(let id):
            plan = api.matches(request, id: id, requestID: requestID)
        case .alerts:
            plan = RoutePlan.work { [alerts] in await alerts.subscribe(request, requestID: requestID) }.under(.private)
        case .alert(let action, let token):
            // Every alert page is its link holder's only: never kept, never compressed (`CachePolicy.private`).
            plan = RoutePlan.work { [alerts] in await alerts.link(action, token: token, request, requestID: requestID) }.under(.private)
        case .healthz:
            plan = RoutePlan.answer(Router.noStore(.text("ok\n"))).under(.noStore)
        case .readyz:
            plan = RoutePlan.work { await readiness(requestID: requestID) }.under(.noStore)
        case .metrics:
            plan = RoutePlan.answer(Router.noStore(metricsEndpoint.scrape())).under(.noStore)
        }
        return (route.metricName, route.rule.format, plan)
    }

    /// Ready when the upstream answered recently (or the cache is warm); otherwise one probe call.
    private func readiness(requestID: String) async -> Response {
        if gateway.answeredRecently(within: readinessWindow) {
            return Router.noStore(.text("ready\n"))
        }
        do {
            _ = try await gateway.snapshot(requestID: requestID)
            return Router.noStore(.text("ready\n"))
        } catch {
            return Router.noStore(.text("not ready: the upstream is not answering\n", status: 503))
        }
    }

    /// A 301 to `path`, keeping the query string (old links keep their filters).
    static func redirect(to path: String, query request: Request) -> Response {
        var response = Response(status: 301)
        response.headers[.location] = QueryString.url(path, keeping: request.query)
        CachePolicy.lasting(seconds: 86400).apply(to: &response)
        return response
    }

    /// Marks a response as never cached (health, metrics).
    static func noStore(_ response: Response) -> Response {
        CachePolicy.noStore.applied(to: response)
    }
}
