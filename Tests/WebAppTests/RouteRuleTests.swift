import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import WebApp

extension ServerIntegration {
    /// The route table (`RouteRule`): every route's methods, as the running server answers them.
    @Suite("The route table decides every 405")
    struct RouteRuleTests {
        /// One path of each route, and the route it must parse to.
        static let samples: [(path: String, route: Route)] = [
            ("/", .landing), ("/pets", .list), ("/map", .map), ("/pets/p1", .details(id: "p1")), ("/pets.atom", .feed),
            ("/pets/p1/poster", .poster(id: "p1")), ("/pets/p1/matches", .matches(id: "p1")),
            ("/pets/p1/matches.atom", .matchesFeed(id: "p1")), ("/lost-pets", .legacyList), ("/lost-pets/p1", .legacyDetails(id: "p1")),
            ("/images/p1.jpg", .image(path: "p1.jpg")), ("/static/app.css", .staticFile(path: "app.css")),
            ("/api/v1/announcements", .apiList), ("/api/v1/announcements/p1", .apiDetails(id: "p1")),
            ("/api/v1/announcements.geojson", .apiGeoJSON), ("/api/v1/openapi.json", .apiDocument),
            ("/report", .report), ("/report/photo", .reportPhoto), ("/api/v1/announcements/p1/photos", .apiPhotos(id: "p1")),
            ("/api/v1/announcements/p1/matches", .apiMatches(id: "p1")), ("/healthz", .healthz), ("/readyz", .readyz),
            ("/metrics", .metrics), ("/favicon.ico", .favicon),
        ]

        @Test func each_sample_is_its_route() {
            for (path, route) in Self.samples { #expect(Route(path: path) == route, "\(path)") }
            #expect(Route(path: "/tiles/1/0/0.png").map { $0.rule == .page } == true)
        }

        @Test func every_method_a_route_does_not_take_is_a_405_with_the_rules_allow_in_the_routes_format() async throws {
            try await withApp { app in
                for (path, route) in Self.samples {
                    for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] where !route.rule.accepts(HTTPRequest.Method(method)!) {
                        let response = try await app.get(path, method: method)
                        #expect(response.status == 405, "\(method) \(path)")
                        #expect(response.header("Allow") == route.rule.allow, "\(method) \(path)")
                        if route.rule.format == .api {
                            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true, "\(method) \(path)")
                            #expect(response.text.contains(#""code":"METHOD_NOT_ALLOWED""#), "\(method) \(path)")
                        } else {
                            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true, "\(method) \(path)")
                        }
                    }
                }
            }
        }

        @Test func only_the_routes_with_a_body_take_post() {
            let writes = Self.samples.filter { $0.route.rule.body != nil }.map(\.path)
            #expect(writes == ["/api/v1/announcements", "/report", "/report/photo", "/api/v1/announcements/p1/photos"])
            for (path, route) in Self.samples {
                #expect(route.rule.accepts(.post) == (route.rule.body != nil), "\(path)")
                #expect((route.rule.limits != nil) == (route.rule.body != nil), "\(path)")
            }
            #expect(Route.apiPhotos(id: "p1").rule.allow == "POST")
            #expect(RouteRule.page.takes(contentType: "multipart/form-data; boundary=x") == false)
            #expect(Route.apiPhotos(id: "p1").rule.takes(contentType: "application/x-www-form-urlencoded") == false)
            #expect(Route.report.rule.takes(contentType: "application/x-www-form-urlencoded") == true)
        }
    }
}
