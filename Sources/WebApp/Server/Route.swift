import PetDomain

/// Every URL the site answers: a kind of route (`RouteKind`, one entry of the route table,
/// `RouteTable`) and the values of its pattern's parameters (docs/style.md "Type the routes"). Links in
/// pages are built from `Route.path`, never from string literals; paths parse and print by the entry's
/// one `RoutePattern`, so a route is written once (docs/architecture.md "How to add a page").
struct Route: Equatable, Sendable, CustomStringConvertible {
    let kind: RouteKind
    /// The values of the pattern's `{…}` parts, in order, decoded.
    let parameters: [String]

    init(_ kind: RouteKind, _ parameters: [String] = []) {
        self.kind = kind
        self.parameters = parameters
    }

    /// Parses a decoded request path; nil for paths the site does not have.
    init?(path: String) {
        // The busiest paths without splitting (the general parse below gives the same answer).
        switch path {
        case "/pets": self.init(.list)
        case "/": self.init(.landing)
        case "/pets.atom": self.init(.feed)
        case "/map": self.init(.map)
        default:
            // Split on scalars, not Characters: a segment that starts with a combining mark (U+116B5)
            // forms one Character with the "/" before it, which then split nothing (found by schemathesis).
            let parts = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
            guard let found = RouteTable.match(parts) else { return nil }
            self.init(found.kind, found.parameters)
        }
    }

    /// The route's entry of the table: its pattern, methods, body, error format, privacy and metric name.
    var entry: RouteEntry { RouteTable.entry(kind) }
    /// The path of this route, percent-encoding its parameters so any value round-trips.
    var path: String { entry.pattern.print(parameters) }
    /// A label for metrics and logs that does not grow with ids.
    var metricName: String { entry.metricName }
    /// What the route takes: methods, body, error format.
    var rule: RouteRule { entry.rule }
    /// The methods this route answers (`Allow` of its 405).
    var allowedMethods: String { rule.allow }
    var description: String { "\(kind)\(parameters.isEmpty ? "" : "\(parameters)")" }

    /// The first parameter: the announcement's id, the file's path, the mail link's token.
    var id: String { parameters.first ?? "" }

    /// The format of an error for `path`: its route's, or, for a path the site does not have, the
    /// API's JSON below `/api/` and an error page elsewhere (the one place that decides it).
    static func errorFormat(path: String?, route: Route?) -> RouteRule.Format {
        route?.rule.format ?? ((path ?? "/").hasPrefix("/api/") ? .api : .page)
    }
}

/// The typed routes links are built from (`Route.details(id:).path`).
extension Route {
    static let landing = Route(.landing)
    static let list = Route(.list)
    /// `/map`: the list's announcements as pins.
    static let map = Route(.map)
    static func details(id: String) -> Route { Route(.details, [id]) }
    /// `/pets.atom`: the list's search as an Atom feed (docs/feeds.md).
    static let feed = Route(.feed)
    /// `/pets/{id}/poster`: the printable A4 poster with a QR code (docs/poster.md).
    static func poster(id: String) -> Route { Route(.poster, [id]) }
    /// `/pets/{id}/sighting`: "I've seen this pet", the form and its answer (docs/sightings.md).
    static func sighting(id: String) -> Route { Route(.sighting, [id]) }
    /// `/pets/{id}/sightings`: the owner's private page (the management code, then the sightings).
    static func sightings(id: String) -> Route { Route(.sightings, [id]) }
    /// A sighting's photo, for the owner's page only.
    static func sightingPhoto(id: String, sighting: String) -> Route { Route(.sightingPhoto, [id, sighting]) }
    /// `/pets/{id}/sightings/reunited`: the owner's "We are reunited" and its undo (POST; GET goes back to the page).
    static func reunited(id: String) -> Route { Route(.reunited, [id]) }
    /// `/pets/{id}/matches`: every possible match of a report (docs/matching.md).
    static func matches(id: String) -> Route { Route(.matches, [id]) }
    /// `/pets/{id}/matches.atom`: a report's possible matches as an Atom feed.
    static func matchesFeed(id: String) -> Route { Route(.matchesFeed, [id]) }
    /// Old web app links (`/lost-pets…`), answered 301 (docs/upstream.md §4).
    static let legacyList = Route(.legacyList)
    static func legacyDetails(id: String) -> Route { Route(.legacyDetails, [id]) }
    /// Photo proxy: the path below `/images/`.
    static func image(path: String) -> Route { Route(.image, [path]) }
    /// A file of `Public/`: the path below `/static/`.
    static func staticFile(path: String) -> Route { Route(.staticFile, [path]) }
    static let apiList = Route(.apiList)
    static func apiDetails(id: String) -> Route { Route(.apiDetails, [id]) }
    /// `/api/v1/announcements.geojson`: the map's data as RFC 7946 GeoJSON.
    static let apiGeoJSON = Route(.apiGeoJSON)
    /// `/api/v1/openapi.json`: the API's OpenAPI 3.1 document (docs/openapi.md).
    static let apiDocument = Route(.apiDocument)
    /// `/tiles/{z}/{x}/{y}.png`: a map tile through our cache; only valid addresses parse.
    static func tile(_ tile: TileAddress) -> Route { Route(.tile, [String(tile.z), String(tile.x), String(tile.y)]) }
    /// `/report`: the report form (GET) and its target (POST), docs/report-flow.md.
    static let report = Route(.report)
    /// `/report/photo`: send a report's photo again, or replace it, with its management code.
    static let reportPhoto = Route(.reportPhoto)
    /// `POST /api/v1/announcements/{id}/photos`: a report's photo through our photo treatment.
    static func apiPhotos(id: String) -> Route { Route(.apiPhotos, [id]) }
    /// `GET /api/v1/announcements/{id}/matches`: a report's possible matches as JSON.
    static func apiMatches(id: String) -> Route { Route(.apiMatches, [id]) }
    /// `POST /alerts`: the subscribe form of list and map pages and of a report (docs/alerts.md).
    static let alerts = Route(.alerts)
    /// `/alerts/{action}/{token}`: a mail's link; GET shows a page with a button, POST acts.
    static func alert(_ action: AlertAction, token: String) -> Route { Route(action.kind, [token]) }
    static let healthz = Route(.healthz)
    static let readyz = Route(.readyz)
    static let metrics = Route(.metrics)
    static let favicon = Route(.favicon)

    /// The tile of a `tile` route (its pattern's parameters are checked against the zoom grid when parsed).
    var tile: TileAddress? {
        guard kind == .tile, parameters.count == 3, let z = Int(parameters[0]), let x = Int(parameters[1]), let y = Int(parameters[2])
        else { return nil }
        return TileAddress(z: z, x: x, y: y)
    }
}

/// What a mail's link under `/alerts/` does (docs/alerts.md "The flow").
enum AlertAction: String, Sendable, CaseIterable {
    /// The confirmation mail's link: a page with "Confirm"; its POST confirms.
    case confirm
    /// Every alert's manage page: frequency, range, language; stop; forget the address.
    case manage
    /// `List-Unsubscribe`: GET shows a button; POST (RFC 8058 one-click, no cookie or Origin) stops.
    case stop
    /// The confirmation mail's "this was not me": never write to the address again.
    case never

    /// The route kind of this action's link.
    var kind: RouteKind {
        switch self {
        case .confirm: .alertConfirm
        case .manage: .alertManage
        case .stop: .alertStop
        case .never: .alertNever
        }
    }
}

extension String {
    /// Pads with leading zeros to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
