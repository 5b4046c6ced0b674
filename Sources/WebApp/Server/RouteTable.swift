import HTTPTypes
internal import ImageResizer
import MicroHTTP

/// The kinds of route the site has: one entry each in `RouteTable.entries`.
enum RouteKind: Int, Sendable, CaseIterable {
    case landing, list, map, details, feed, poster, matches, matchesFeed, legacyList, legacyDetails
    case image, staticFile, apiList, apiDetails, apiGeoJSON, apiDocument, tile, report, reportPhoto
    case apiPhotos, apiMatches, alerts, alertConfirm, alertManage, alertStop, alertNever
    case healthz, readyz, metrics, favicon
}

/// One route, declared once: its path pattern (parsed and printed by `RoutePattern`), its methods,
/// body and error format (`RouteRule`), who may keep its answers (`privacy`), its metric name and its
/// handler. The router, the body policy (`WritePolicy`), the error writer, the 405s and the tests read it;
/// nothing else decides these (docs/architecture.md "How to add a page").
struct RouteEntry: Sendable {
    /// Who may keep a route's answers, decided with the route rather than by each answer.
    enum Privacy: Sendable, Equatable {
        /// Public answers: the handler gives each its `CachePolicy` (`shared`, `lasting`, `stale`).
        case `public`
        /// For the client that asked only (a management code, a mail link's token, a write's answer):
        /// every answer is `CachePolicy.private` (never kept, never compressed) whatever the handler says.
        case `private`
        /// For this request only (health, metrics): `CachePolicy.noStore`.
        case noStore

        /// The policy every answer of a route gets, or nil when its handler chooses (`public`).
        var policy: CachePolicy? {
            switch self {
            case .public: nil
            case .private: .private
            case .noStore: .noStore
            }
        }
    }

    let kind: RouteKind
    /// The canonical path pattern (printed by `Route.path`), then other spellings that parse to it (`/pets/`).
    let patterns: [RoutePattern]
    let rule: RouteRule
    let privacy: Privacy
    let metricName: String
    /// Checks the parameters beyond their shape (a tile inside the zoom grid); nil: any.
    let accepts: (@Sendable ([String]) -> Bool)?
    /// The route's plan for one request (`RoutePlan`); the router has checked its method.
    let handle: @Sendable (Router, Request, Route, _ requestID: String) -> RoutePlan

    var pattern: RoutePattern { patterns[0] }
}

/// The route table: every route of the site, in the order paths are matched.
enum RouteTable {
    /// Every entry, indexed by `RouteKind.rawValue` (`entry(_:)`); checked at startup (`check()`).
    static let entries: [RouteEntry] = {
        let all = Router.declarations
        return RouteKind.allCases.map { kind in
            guard let entry = all.first(where: { $0.kind == kind }) else { fatalError("RouteTable: \(kind) has no entry") }
            return entry
        }
    }()

    static func entry(_ kind: RouteKind) -> RouteEntry { entries[kind.rawValue] }

    /// The route of a path split on "/" (its leading empty part dropped): the first entry whose pattern matches.
    static func match(_ parts: [Substring]) -> (kind: RouteKind, parameters: [String])? {
        for entry in entries {
            for pattern in entry.patterns {
                guard let values = pattern.match(parts) else { continue }
                if let accepts = entry.accepts, !accepts(values) { return nil }
                return (entry.kind, values)
            }
        }
        return nil
    }

    /// Problems of the table: a kind without an entry or with two, two routes with the same
    /// a metric name that is not snake_case, a page form that is public. Empty when it is sound (`RouteTableTests`).
    static func problems() -> [String] {
        var problems: [String] = []
        let declared = Router.declarations
        for kind in RouteKind.allCases where declared.filter({ $0.kind == kind }).count != 1 {
            problems.append("\(kind): \(declared.filter { $0.kind == kind }.count) entries")
        }
        for entry in declared where entry.metricName.isEmpty || !entry.metricName.allSatisfy({ $0.isLowercase || $0 == "_" }) {
            problems.append("\(entry.kind): metric name '\(entry.metricName)' is not snake_case")
        }
        for entry in declared where entry.rule.body != nil && entry.privacy == .public && entry.rule.format == .page {
            problems.append("\(entry.kind): a page that takes a body must be private")
        }
        return problems
    }
}

extension RouteEntry {
    /// A GET/HEAD page route.
    static func page(
        _ kind: RouteKind,
        _ patterns: String...,
        metric: String,
        privacy: Privacy = .public,
        accepts: (@Sendable ([String]) -> Bool)? = nil,
        handle: @escaping @Sendable (Router, Request, Route, String) -> RoutePlan
    ) -> RouteEntry {
        RouteEntry(
            kind: kind,
            patterns: patterns.map(RoutePattern.init),
            rule: .page,
            privacy: privacy,
            metricName: metric,
            accepts: accepts,
            handle: handle
        )
    }

    /// A route with its own rule (an API read, a write with a body).
    static func route(
        _ kind: RouteKind,
        _ patterns: String...,
        rule: RouteRule,
        metric: String,
        privacy: Privacy,
        handle: @escaping @Sendable (Router, Request, Route, String) -> RoutePlan
    ) -> RouteEntry {
        RouteEntry(
            kind: kind,
            patterns: patterns.map(RoutePattern.init),
            rule: rule,
            privacy: privacy,
            metricName: metric,
            accepts: nil,
            handle: handle
        )
    }
}

extension Router {
    /// Every route of the site, one entry each: path, methods and body, who may keep its answers,
    /// metric name, handler. A path matches the first entry whose pattern fits.
    static let declarations: [RouteEntry] = [
        .page(.landing, "/", metric: "landing") { r, request, _, id in r.pages.landing(request, requestID: id) },
        .page(.list, "/pets", "/pets/", metric: "list") { r, request, _, id in r.pages.list(request, requestID: id) },
        .page(.map, "/map", metric: "map") { r, request, _, id in r.pages.map(request, requestID: id) },
        .page(.feed, "/pets.atom", metric: "feed") { r, request, _, id in r.pages.feed(request, requestID: id) },
        .page(.details, "/pets/{id}", metric: "details") { r, request, route, id in r.pages.details(request, id: route.id, requestID: id) },
        .page(.poster, "/pets/{id}/poster", metric: "poster") { r, request, route, id in r.pages.poster(request, id: route.id, requestID: id) },
        .page(.matches, "/pets/{id}/matches", metric: "matches") { r, request, route, id in
            r.pages.matches(request, id: route.id, requestID: id)
        },
        .page(.matchesFeed, "/pets/{id}/matches.atom", metric: "matches_feed") { r, request, route, id in
            r.pages.matchesFeed(request, id: route.id, requestID: id)
        },
        .page(.legacyList, "/lost-pets", "/lost-pets/", metric: "legacy_redirect") { _, request, _, _ in
            .answer(Router.redirect(to: Route.list.path, query: request))
        },
        .page(.legacyDetails, "/lost-pets/{id}", metric: "legacy_redirect") { _, request, route, _ in
            .answer(Router.redirect(to: Route.details(id: route.id).path, query: request))
        },
        .page(.image, "/images/{path...}", metric: "image") { r, request, route, id in r.image(request, path: route.id, requestID: id) },
        .page(.staticFile, "/static/{path...}", metric: "static") { r, request, route, _ in r.staticFile(route.id, request: request) },
        .page(.favicon, "/favicon.ico", metric: "static") { r, request, _, _ in r.staticFile("favicon.svg", request: request) },
        .page(
            .tile,
            "/tiles/{z}/{x}/{y}.png",
            metric: "tile",
            accepts: { TileAddress(z: $0[0], x: $0[1], yFile: $0[2] + ".png") != nil }
        ) { r, request, route, id in
            guard let tile = route.tile else { return .failed(HTTPError(404, .errorNoPage)) }
            return .needs(r.tiles.need(tile, requestID: id)) { [tiles = r.tiles] outcome throws(HTTPError) in
                try tiles.answer(outcome, request: request)
            }
        },
        .route(
            .apiList,
            "/api/v1/announcements",
            rule: RouteRule(methods: [.get, .head, .post], body: .json, format: .api),
            metric: "api_list",
            privacy: .public
        ) { r, request, _, id in
            guard request.method == .post else { return r.api.list(request, requestID: id) }
            // A write's answer is its writer's: the route is public, this answer private.
            return RoutePlan.work { [writes = r.writes] () async throws(HTTPError) in try await writes.create(request, requestID: id) }
                .under(.private)
        },
        .route(.apiDetails, "/api/v1/announcements/{id}", rule: .apiRead, metric: "api_details", privacy: .public) { r, request, route, id in
            r.api.details(request, id: route.id, requestID: id)
        },
        .route(.apiGeoJSON, "/api/v1/announcements.geojson", rule: .apiRead, metric: "api_geojson", privacy: .public) { r, request, _, id in
            r.api.geoJSON(request, requestID: id)
        },
        .route(.apiDocument, "/api/v1/openapi.json", rule: .apiRead, metric: "api_document", privacy: .public) { r, request, _, _ in
            // docs/openapi.yaml as JSON (scripts/openapi.sh makes it), read at startup with the other
            // public files: ETag, 304 and its compressed forms come with it.
            r.staticFiles.reply(for: AnnouncementsAPI.documentAsset, request: request).map(RoutePlan.answer)
                ?? .failed(.api(404, code: "NOT_FOUND", message: "The API document is not installed."))
        },
        .route(
            .apiPhotos,
            "/api/v1/announcements/{id}/photos",
            rule: RouteRule(methods: .post, body: .form(urlEncoded: false), format: .api),
            metric: "api_photos",
            privacy: .private
        ) { r, request, route, id in
            RoutePlan.work { [writes = r.writes] () async throws(HTTPError) in try await writes.photo(request, id: route.id, requestID: id) }
        },
        .route(.apiMatches, "/api/v1/announcements/{id}/matches", rule: .apiRead, metric: "api_matches", privacy: .public) { r, request, route, id in
            r.api.matches(request, id: route.id, requestID: id)
        },
        // Report pages are for their visitor only: the result holds the management code.
        .route(.report, "/report", rule: .pageWrite, metric: "report", privacy: .private) { r, request, _, id in
            guard request.method == .post else { return .making { () throws(HTTPError) in try r.reports.form(request) } }
            return .work { [reports = r.reports, alerts = r.alerts] in
                // "E-mail me possible matches" ticked on the form: the new report is followed (a confirmation first).
                await alerts.followMatches(made: await reports.submit(request, requestID: id), request, requestID: id)
            }
        },
        .route(.reportPhoto, "/report/photo", rule: .pageWrite, metric: "report_photo", privacy: .private) { r, request, _, id in
            guard request.method == .post else { return .answer(r.reports.photoForm(request)) }
            return .work { [reports = r.reports] in await reports.sendPhoto(request, requestID: id) }
        },
        .route(
            .alerts,
            "/alerts",
            rule: RouteRule(methods: .post, body: .form(urlEncoded: true), format: .page),
            metric: "alerts",
            privacy: .private
        ) { r, request, _, id in
            .work { [alerts = r.alerts] in await alerts.subscribe(request, requestID: id) }
        },
        // A mail's links: GET shows a page with a button, POST acts; each its link holder's only.
        alertLink(.confirm), alertLink(.manage), alertLink(.stop), alertLink(.never),
        .page(.healthz, "/healthz", metric: "healthz", privacy: .noStore) { _, _, _, _ in .answer(.text("ok\n")) },
        .page(.readyz, "/readyz", metric: "readyz", privacy: .noStore) { r, _, _, id in .work { await r.readiness(requestID: id) } },
        .page(.metrics, "/metrics", metric: "metrics", privacy: .noStore) { r, _, _, _ in .answer(r.metricsEndpoint.scrape()) },
    ]

    /// The entry of a mail link's route (`/alerts/{action}/{token}`).
    private static func alertLink(_ action: AlertAction) -> RouteEntry {
        .route(action.kind, "/alerts/\(action.rawValue)/{token}", rule: .pageWrite, metric: "alert_" + action.rawValue, privacy: .private) {
            r,
            request,
            route,
            id in
            .work { [alerts = r.alerts] in await alerts.link(action, token: route.id, request, requestID: id) }
        }
    }
}
