import HTTPTypes
import MicroHTTP

/// The kinds of route the site has: one entry each in `RouteTable.entries`.
enum RouteKind: Int, Sendable, CaseIterable {
    case landing, list, map, details, feed, poster, matches, matchesFeed, legacyList, legacyDetails
    case image, staticFile, apiList, apiDetails, apiGeoJSON, apiDocument, tile, report, reportPhoto
    case apiPhotos, apiMatches, alerts, alertConfirm, alertManage, alertStop, alertNever
    case sighting, sightings, sightingPhoto, reunited
    case healthz, readyz, metrics, favicon
}

/// One route, declared once: its path pattern (parsed and printed by `RoutePattern`), its methods,
/// body and error format (`RouteRule`), who may keep its answers (`privacy`) and its metric name. The
/// router (which runs its handler: `Router.handle`, a switch the compiler holds to every kind), the body
/// policy (`WritePolicy`), the error writer, the 405s and the tests read it; nothing else decides these
/// (docs/architecture.md "How to add a page"). It names no handler so that the route parser builds
/// without the site (the fuzz harness compiles it alone: scripts/fuzz.sh).
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

    var pattern: RoutePattern { patterns[0] }
}

/// The route table: every route of the site, in the order paths are matched.
enum RouteTable {
    /// Every entry, indexed by `RouteKind.rawValue` (`entry(_:)`); `problems()` checks the declarations (`RouteTableTests`).
    static let entries: [RouteEntry] = {
        let all = RouteTable.declarations
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

    /// Problems of the table: a kind without an entry or with two, a metric name that is not snake_case,
    /// a page form that is public. Empty when it is sound (`RouteTableTests`).
    static func problems() -> [String] {
        var problems: [String] = []
        let declared = RouteTable.declarations
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
        accepts: (@Sendable ([String]) -> Bool)? = nil
    ) -> RouteEntry {
        RouteEntry(kind: kind, patterns: patterns.map(RoutePattern.init), rule: .page, privacy: privacy, metricName: metric, accepts: accepts)
    }

    /// A route with its own rule (an API read, a write with a body).
    static func route(_ kind: RouteKind, _ pattern: String, rule: RouteRule, metric: String, privacy: Privacy) -> RouteEntry {
        RouteEntry(kind: kind, patterns: [RoutePattern(pattern)], rule: rule, privacy: privacy, metricName: metric, accepts: nil)
    }
}

extension RouteTable {
    /// Every route of the site, one entry each: path, methods and body, who may keep its answers, metric
    /// name. A path matches the first entry (in `RouteKind` order) whose pattern fits. Its handler is
    /// `Router.handle`'s case for its kind.
    static let declarations: [RouteEntry] = [
        .page(.landing, "/", metric: "landing"),
        .page(.list, "/pets", "/pets/", metric: "list"),
        .page(.map, "/map", metric: "map"),
        .page(.feed, "/pets.atom", metric: "feed"),
        .page(.details, "/pets/{id}", metric: "details"),
        .page(.poster, "/pets/{id}/poster", metric: "poster"),
        .page(.matches, "/pets/{id}/matches", metric: "matches"),
        .page(.matchesFeed, "/pets/{id}/matches.atom", metric: "matches_feed"),
        .page(.legacyList, "/lost-pets", "/lost-pets/", metric: "legacy_redirect"),
        .page(.legacyDetails, "/lost-pets/{id}", metric: "legacy_redirect"),
        .page(.image, "/images/{path...}", metric: "image"),
        .page(.staticFile, "/static/{path...}", metric: "static"),
        .page(.favicon, "/favicon.ico", metric: "static"),
        .page(.tile, "/tiles/{z}/{x}/{y}.png", metric: "tile", accepts: { TileAddress(z: $0[0], x: $0[1], yFile: $0[2] + ".png") != nil }),
        .route(
            .apiList,
            "/api/v1/announcements",
            rule: RouteRule(methods: [.get, .head, .post], body: .json, format: .api),
            metric: "api_list",
            privacy: .public
        ),
        .route(.apiDetails, "/api/v1/announcements/{id}", rule: .apiRead, metric: "api_details", privacy: .public),
        .route(.apiGeoJSON, "/api/v1/announcements.geojson", rule: .apiRead, metric: "api_geojson", privacy: .public),
        .route(.apiDocument, "/api/v1/openapi.json", rule: .apiRead, metric: "api_document", privacy: .public),
        .route(
            .apiPhotos,
            "/api/v1/announcements/{id}/photos",
            rule: RouteRule(methods: .post, body: .form(urlEncoded: false), format: .api),
            metric: "api_photos",
            privacy: .private
        ),
        .route(.apiMatches, "/api/v1/announcements/{id}/matches", rule: .apiRead, metric: "api_matches", privacy: .public),
        // Report pages are for their visitor only: the result holds the management code.
        .route(.report, "/report", rule: .pageWrite, metric: "report", privacy: .private),
        .route(.reportPhoto, "/report/photo", rule: .pageWrite, metric: "report_photo", privacy: .private),
        .route(
            .alerts,
            "/alerts",
            rule: RouteRule(methods: .post, body: .form(urlEncoded: true), format: .page),
            metric: "alerts",
            privacy: .private
        ),
        // "I've seen this pet" (docs/sightings.md): the form's answer is its sender's; the owner's page and its
        // photos hold what only the owner may read.
        .route(.sighting, "/pets/{id}/sighting", rule: .pageWrite, metric: "sighting", privacy: .private),
        .route(.sightings, "/pets/{id}/sightings", rule: .pageWrite, metric: "sightings", privacy: .private),
        .page(.sightingPhoto, "/pets/{id}/sightings/{sighting}/photo", metric: "sighting_photo", privacy: .private),
        // Under the owner's page's path, so that its cookie (Path=/pets/{id}/sightings) comes along.
        .route(.reunited, "/pets/{id}/sightings/reunited", rule: .pageWrite, metric: "reunited", privacy: .private),
        // A mail's links: GET shows a page with a button, POST acts; each its link holder's only.
        alertLink(.confirm), alertLink(.manage), alertLink(.stop), alertLink(.never),
        .page(.healthz, "/healthz", metric: "healthz", privacy: .noStore),
        .page(.readyz, "/readyz", metric: "readyz", privacy: .noStore),
        .page(.metrics, "/metrics", metric: "metrics", privacy: .noStore),
    ]

    /// The entry of a mail link's route (`/alerts/{action}/{token}`).
    private static func alertLink(_ action: AlertAction) -> RouteEntry {
        .route(action.kind, "/alerts/\(action.rawValue)/{token}", rule: .pageWrite, metric: "alert_" + action.rawValue, privacy: .private)
    }
}
