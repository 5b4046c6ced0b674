import PetDomain

/// Every URL the site answers, parsed from and printed to paths in one place (docs/style.md "Type the
/// routes"): links in pages are built from `Route.path`, never from string literals.
enum Route: Equatable, Sendable {
    case landing
    case list
    /// `/map`: the list's announcements as pins.
    case map
    case details(id: String)
    /// `/pets.atom`: the list's search as an Atom feed (docs/feeds.md).
    case feed
    /// `/pets/{id}/poster`: the printable A4 poster with a QR code (docs/poster.md).
    case poster(id: String)
    /// `/pets/{id}/matches`: every possible match of a report (docs/matching.md).
    case matches(id: String)
    /// `/pets/{id}/matches.atom`: a report's possible matches as an Atom feed.
    case matchesFeed(id: String)
    /// Old web app links (`/lost-pets…`), answered 301 (docs/upstream.md §4).
    case legacyList
    case legacyDetails(id: String)
    /// Photo proxy: the path below `/images/`.
    case image(path: String)
    /// A file of `Public/`: the path below `/static/`.
    case staticFile(path: String)
    case apiList
    case apiDetails(id: String)
    /// `/api/v1/announcements.geojson`: the map's data as RFC 7946 GeoJSON.
    case apiGeoJSON
    /// `/api/v1/openapi.json`: the API's OpenAPI 3.1 document (docs/openapi.md).
    case apiDocument
    /// `/tiles/{z}/{x}/{y}.png`: a map tile through our cache; only valid addresses parse.
    case tile(TileAddress)
    /// `/report`: the report form (GET) and its target (POST), docs/report-flow.md.
    case report
    /// `/report/photo`: send a report's photo again, or replace it, with its management code.
    case reportPhoto
    /// `POST /api/v1/announcements/{id}/photos`: a report's photo through our photo treatment.
    case apiPhotos(id: String)
    /// `GET /api/v1/announcements/{id}/matches`: a report's possible matches as JSON.
    case apiMatches(id: String)
    /// `POST /alerts`: the subscribe form of list and map pages and of a report (docs/alerts.md).
    case alerts
    /// `/alerts/{action}/{token}`: a mail's link; GET shows a page with a button, POST acts.
    case alert(AlertAction, token: String)
    case healthz
    case readyz
    case metrics
    case favicon

    /// Parses a decoded request path; nil for paths the site does not have.
    init?(path: String) {
        // The busiest paths without splitting (the general parse below gives the same answer).
        switch path {
        case "/pets":
            self = .list
            return
        case "/":
            self = .landing
            return
        case "/pets.atom":
            self = .feed
            return
        case "/map":
            self = .map
            return
        default: break
        }
        // Split on scalars, not Characters: a segment that starts with a combining mark (U+116B5)
        // forms one Character with the "/" before it, which then split nothing (found by schemathesis).
        let parts = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { String(Substring($0)) }
        switch parts.first ?? "" {
        case "" where parts.count <= 1: self = .landing
        case "pets":
            switch parts.count {
            case 1: self = .list
            case 2 where !parts[1].isEmpty: self = .details(id: parts[1])
            case 2: self = .list
            case 3 where !parts[1].isEmpty && parts[2] == "poster": self = .poster(id: parts[1])
            case 3 where !parts[1].isEmpty && parts[2] == "matches": self = .matches(id: parts[1])
            case 3 where !parts[1].isEmpty && parts[2] == "matches.atom": self = .matchesFeed(id: parts[1])
            default: return nil
            }
        case "lost-pets":
            switch parts.count {
            case 1: self = .legacyList
            case 2 where !parts[1].isEmpty: self = .legacyDetails(id: parts[1])
            case 2: self = .legacyList
            default: return nil
            }
        case "map" where parts.count == 1: self = .map
        case "pets.atom" where parts.count == 1: self = .feed
        case "tiles" where parts.count == 4:
            guard let tile = TileAddress(z: parts[1], x: parts[2], yFile: parts[3]) else { return nil }
            self = .tile(tile)
        case "images" where parts.count >= 2: self = .image(path: parts.dropFirst().joined(separator: "/"))
        case "static" where parts.count >= 2: self = .staticFile(path: parts.dropFirst().joined(separator: "/"))
        case "api" where parts.count == 3 && parts[1] == "v1" && parts[2] == "announcements.geojson": self = .apiGeoJSON
        case "api" where parts.count == 3 && parts[1] == "v1" && parts[2] == "openapi.json": self = .apiDocument
        case "api" where parts.count >= 3 && parts[1] == "v1" && parts[2] == "announcements":
            switch parts.count {
            case 3: self = .apiList
            case 4 where !parts[3].isEmpty: self = .apiDetails(id: parts[3])
            case 5 where !parts[3].isEmpty && parts[4] == "photos": self = .apiPhotos(id: parts[3])
            case 5 where !parts[3].isEmpty && parts[4] == "matches": self = .apiMatches(id: parts[3])
            default: return nil
            }
        case "report" where parts.count == 1: self = .report
        case "report" where parts.count == 2 && parts[1] == "photo": self = .reportPhoto
        case "alerts" where parts.count == 1: self = .alerts
        case "alerts" where parts.count == 3:
            guard let action = AlertAction(rawValue: parts[1]), !parts[2].isEmpty else { return nil }
            self = .alert(action, token: parts[2])
        case "healthz" where parts.count == 1: self = .healthz
        case "readyz" where parts.count == 1: self = .readyz
        case "metrics" where parts.count == 1: self = .metrics
        case "favicon.ico" where parts.count == 1: self = .favicon
        default: return nil
        }
    }

    /// The path of this route, percent-encoding ids so any id round-trips.
    var path: String {
        switch self {
        case .landing: return "/"
        case .list: return "/pets"
        case .map: return "/map"
        case .details(let id): return "/pets/\(URLText.encodeComponent(id))"
        case .feed: return "/pets.atom"
        case .poster(let id): return "/pets/\(URLText.encodeComponent(id))/poster"
        case .matches(let id): return "/pets/\(URLText.encodeComponent(id))/matches"
        case .matchesFeed(let id): return "/pets/\(URLText.encodeComponent(id))/matches.atom"
        case .legacyList: return "/lost-pets"
        case .legacyDetails(let id): return "/lost-pets/\(URLText.encodeComponent(id))"
        case .image(let path): return "/images/" + Route.encodedSegments(path)
        case .staticFile(let path): return "/static/" + Route.encodedSegments(path)
        case .apiList: return "/api/v1/announcements"
        case .apiDetails(let id): return "/api/v1/announcements/\(URLText.encodeComponent(id))"
        case .apiGeoJSON: return "/api/v1/announcements.geojson"
        case .apiDocument: return "/api/v1/openapi.json"
        case .tile(let tile): return "/tiles/\(tile.z)/\(tile.x)/\(tile.y).png"
        case .report: return "/report"
        case .reportPhoto: return "/report/photo"
        case .apiPhotos(let id): return "/api/v1/announcements/\(URLText.encodeComponent(id))/photos"
        case .apiMatches(let id): return "/api/v1/announcements/\(URLText.encodeComponent(id))/matches"
        case .alerts: return "/alerts"
        case .alert(let action, let token): return "/alerts/\(action.rawValue)/\(URLText.encodeComponent(token))"
        case .healthz: return "/healthz"
        case .readyz: return "/readyz"
        case .metrics: return "/metrics"
        case .favicon: return "/favicon.ico"
        }
    }

    /// `path` with each `/`-separated segment percent-encoded and empty segments kept, so the path
    /// printed parses back to the same route (`a//b` and `100%.txt` did not: found by fuzzing).
    private static func encodedSegments(_ path: String) -> String {
        path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map { URLText.encodeComponent(String(Substring($0))) }
            .joined(separator: "/")
    }

    /// A label for metrics and logs that does not grow with ids.
    var metricName: String {
        switch self {
        case .landing: return "landing"
        case .list: return "list"
        case .map: return "map"
        case .details: return "details"
        case .feed: return "feed"
        case .poster: return "poster"
        case .matches: return "matches"
        case .matchesFeed: return "matches_feed"
        case .legacyList, .legacyDetails: return "legacy_redirect"
        case .image: return "image"
        case .staticFile, .favicon: return "static"
        case .apiList: return "api_list"
        case .apiDetails: return "api_details"
        case .apiGeoJSON: return "api_geojson"
        case .apiDocument: return "api_document"
        case .tile: return "tile"
        case .report: return "report"
        case .reportPhoto: return "report_photo"
        case .apiPhotos: return "api_photos"
        case .apiMatches: return "api_matches"
        case .alerts: return "alerts"
        case .alert(let action, _): return "alert_" + action.rawValue
        case .healthz: return "healthz"
        case .readyz: return "readyz"
        case .metrics: return "metrics"
        }
    }
}

/// What a mail's link under `/alerts/` does (docs/alerts.md "The flow").
enum AlertAction: String, Sendable {
    /// The confirmation mail's link: a page with "Confirm"; its POST confirms.
    case confirm
    /// Every alert's manage page: frequency, range, language; stop; forget the address.
    case manage
    /// `List-Unsubscribe`: GET shows a button; POST (RFC 8058 one-click, no cookie or Origin) stops.
    case stop
    /// The confirmation mail's "this was not me": never write to the address again.
    case never
}

extension String {
    /// Pads with leading zeros to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
