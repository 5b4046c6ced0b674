import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import MicroHTTP
@testable import WebApp

/// The route table (`RouteTable`): one entry per route, sound, and its privacy kept by every answer.
@Suite("The route table")
struct RouteTableTests {
    @Test func every_kind_has_one_entry_and_the_table_has_no_problems() {
        #expect(RouteTable.problems() == [])
        #expect(RouteTable.entries.map(\.kind) == RouteKind.allCases)
        // No two entries print the same canonical pattern.
        let patterns = RouteTable.entries.map(\.pattern.description)
        #expect(Set(patterns).count == patterns.count)
    }

    @Test func each_patterns_sample_path_parses_to_its_kind_and_prints_back() throws {
        for entry in RouteTable.entries {
            let values = entry.pattern.segments.compactMap { segment -> String? in
                switch segment {
                case .literal: nil
                case .parameter: "7"
                case .rest: "a b/c%d.png"
                }
            }
            let route = Route(entry.kind, values)
            let decoded = try #require(PercentDecoding.decode(route.path), "\(route.path)")
            #expect(Route(path: decoded) == route, "\(entry.pattern) printed \(route.path)")
        }
    }

    @Test func a_handler_that_names_no_policy_answers_no_store_and_a_private_route_overrides_any_policy() throws {
        #expect(Reply(.text("x")).cache == .noStore)
        let shared = RoutePlan.answer(Reply(.text("x"), cache: .shared(ttlSeconds: 30, staleIfErrorSeconds: 600)))
        #expect(try shared.under(.private).now()?.cache == .private)
        // Pinned here, not read from the table: a route that turned public by mistake fails.
        let privateKinds: Set<RouteKind> = [
            .report, .reportPhoto, .apiPhotos, .alerts, .alertConfirm, .alertManage, .alertStop, .alertNever, .sighting, .sightings, .sightingPhoto,
            .reunited,
        ]
        #expect(Set(RouteTable.entries.filter { $0.privacy == .private }.map(\.kind)) == privateKinds)
        #expect(Set(RouteTable.entries.filter { $0.privacy == .noStore }.map(\.kind)) == [.healthz, .readyz, .metrics])
    }
}

extension ServerIntegration {
    /// Every route of the table, answered by the running server: a private route's answers are never
    /// compressed nor kept by the server, a public route's are `public` (and compressed when their body
    /// is text large enough), whatever the request asks.
    @Suite("Each route's answers keep its privacy")
    struct RoutePrivacyTests {
        /// A request of each kind: method, target, form body.
        static func sample(_ kind: RouteKind, search: String) -> (method: String, target: String, body: String?) {
            switch kind {
            case .landing: ("GET", "/", nil)
            case .list: ("GET", "/pets?lat=52.23&lng=21.01&range=50", nil)
            case .map: ("GET", "/map", nil)
            case .details: ("GET", "/pets/land-01", nil)
            case .feed: ("GET", "/pets.atom", nil)
            case .poster: ("GET", "/pets/land-01/poster", nil)
            case .matches: ("GET", "/pets/land-01/matches", nil)
            case .matchesFeed: ("GET", "/pets/land-01/matches.atom", nil)
            case .legacyList: ("GET", "/lost-pets", nil)
            case .legacyDetails: ("GET", "/lost-pets/land-01", nil)
            case .image: ("GET", "/images/pet.jpg?w=320", nil)
            case .staticFile: ("GET", "/static/css/site.css", nil)
            case .apiList: ("GET", "/api/v1/announcements", nil)
            case .apiDetails: ("GET", "/api/v1/announcements/land-01", nil)
            case .apiGeoJSON: ("GET", "/api/v1/announcements.geojson", nil)
            case .apiDocument: ("GET", "/api/v1/openapi.json", nil)
            case .tile: ("GET", "/tiles/0/0/0.png", nil)
            case .report: ("GET", "/report", nil)
            case .reportPhoto: ("GET", "/report/photo", nil)
            case .apiPhotos: ("POST", "/api/v1/announcements/land-01/photos", "")
            case .apiMatches: ("GET", "/api/v1/announcements/land-01/matches", nil)
            case .alerts:
                ("POST", "/alerts", String(decoding: AlertFlowTests.subscribeBody(search: search, email: "route@example.com"), as: UTF8.self))
            case .alertConfirm: ("GET", "/alerts/confirm/0123456789abcdef0123456789abcdef", nil)
            case .alertManage: ("GET", "/alerts/manage/0123456789abcdef0123456789abcdef", nil)
            case .alertStop: ("POST", "/alerts/stop/0123456789abcdef0123456789abcdef", "List-Unsubscribe=One-Click")
            case .alertNever: ("GET", "/alerts/never/0123456789abcdef0123456789abcdef", nil)
            case .sighting: ("GET", "/pets/land-01/sighting", nil)
            case .sightings: ("GET", "/pets/land-01/sightings", nil)
            case .sightingPhoto: ("GET", "/pets/land-01/sightings/0123456789abcdef0123456789abcdef/photo", nil)
            case .reunited: ("POST", "/pets/land-01/sightings/reunited", "undo=1")
            case .healthz: ("GET", "/healthz", nil)
            case .readyz: ("GET", "/readyz", nil)
            case .metrics: ("GET", "/metrics", nil)
            case .favicon: ("GET", "/favicon.ico", nil)
            }
        }

        @Test func every_route_keeps_its_privacy() async throws {
            try await withApp(listJSON: try fixture("pages-landing.json")) { app in
                let port = app.app.port
                let page = try await app.get("/pets?lat=52.23&lng=21.01&range=50")
                let search = try AlertFlowTests.search(in: page.text)
                var compressedPublic = 0
                var privateOKs = 0
                for kind in RouteKind.allCases {
                    let (method, target, body) = Self.sample(kind, search: search)
                    let entry = RouteTable.entry(kind)
                    var headers = ["Accept-Encoding": "br, gzip"]
                    if body != nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
                    let before = metricValue(try await app.get("/metrics").text, "petspot_kept_answers_entries") ?? -1
                    // Three times: the second sighting of a page is when the server keeps it (docs/caches.md).
                    var replies: [RawReply] = []
                    for _ in 0..<3 { replies.append(await rawRequest(port: port, target, method: method, headers: headers, body: body)) }
                    let after = metricValue(try await app.get("/metrics").text, "petspot_kept_answers_entries") ?? -1
                    for reply in replies {
                        // The tile server of the tests is a port nothing listens on (`withApp`): its 502 is an error page.
                        #expect(reply.status != 0 && (reply.status < 500 || kind == .tile), "\(kind) \(target): \(reply.status)")
                        let cacheControl = reply.header("Cache-Control") ?? ""
                        switch entry.privacy {
                        case .private, .noStore:
                            #expect(cacheControl == "no-store", "\(kind) \(target): \(cacheControl)")
                            #expect(reply.header("Content-Encoding") == nil, "\(kind) \(target) was compressed")
                            #expect(reply.header("CDN-Cache-Control") == nil, "\(kind) \(target)")
                            if reply.status == 200 { privateOKs += 1 }
                        case .public:
                            guard reply.status == 200 else { continue }
                            #expect(cacheControl.hasPrefix("public") || cacheControl == "no-cache", "\(kind) \(target): \(cacheControl)")
                            let type = reply.header("Content-Type") ?? ""
                            // A text answer goes compressed unless it is too small to gain (its size as sent, then).
                            if BodyCompression.policy.isCompressible(contentType: type) {
                                let compressed = reply.header("Content-Encoding") != nil
                                #expect(compressed || reply.body.count < BodyCompression.policy.minimumBytes, "\(kind) \(target) was not compressed")
                                if compressed { compressedPublic += 1 }
                            }
                        }
                    }
                    if entry.privacy != .public { #expect(after == before, "\(kind) \(target): the server kept a private answer") }
                    if kind == .list || kind == .landing { #expect(after > before, "\(kind) \(target): a public page was not kept") }
                }
                // The walk met real answers of both kinds, not only errors.
                // (11 public routes compressed, 6 private or no-store ones answering 200, three times each).
                #expect(compressedPublic >= 30)
                #expect(privateOKs >= 15)
            }
        }

        @Test func a_fresh_public_page_tells_a_cdn_to_serve_stale_while_revalidating_and_browsers_to_revalidate() async throws {
            try await withApp(listJSON: try fixture("pages-landing.json")) { app in
                let reply = await rawRequest(port: app.app.port, "/pets")
                #expect(reply.header("Cache-Control") == "public, max-age=0, s-maxage=30, stale-if-error=600")
                #expect(reply.header("CDN-Cache-Control") == "max-age=30, stale-while-revalidate=30, stale-if-error=600")
                let file = await rawRequest(port: app.app.port, "/static/css/site.css")
                #expect(file.header("Cache-Control") == "public, max-age=86400")
                #expect(file.header("CDN-Cache-Control") == nil)
            }
        }

        @Test func an_unknown_path_is_one_404_in_the_format_of_its_place() async throws {
            try await withApp { app in
                for method in ["GET", "POST"] {
                    let api = await rawRequest(port: app.app.port, "/api/v1/nothing", method: method, body: method == "POST" ? "{}" : nil)
                    #expect(api.status == (method == "GET" ? 404 : 405), "\(method)")
                    #expect(api.header("Content-Type")?.hasPrefix("application/json") == true, "\(method)")
                    let page = await rawRequest(port: app.app.port, "/nothing", method: method, body: method == "POST" ? "x" : nil)
                    #expect(page.header("Content-Type")?.hasPrefix("text/html") == true, "\(method)")
                }
            }
        }
    }
}
