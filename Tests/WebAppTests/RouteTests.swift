import Testing

@testable import MicroHTTP
@testable import WebApp

/// `Route`: the path a route prints, decoded as a request path is, parses back to the same route.
@Suite struct RouteTests {
    @Test(arguments: [
        Route.landing, .list, .feed, .details(id: "a b c?d&e=f"), .legacyDetails(id: "%41"), .apiDetails(id: "ünï"),
        .image(path: "pet-02.jpg"), .image(path: "my cat.png"), .staticFile(path: "css/site.css"),
        // Found by fuzzing: empty segments were dropped and `%` was printed unescaped.
        .image(path: "a//b.png"), .image(path: "/x.png"), .staticFile(path: "css//site.css"), .staticFile(path: "100%.txt"),
        // The map, its GeoJSON and its tiles.
        .map, .apiGeoJSON, .tile(TileAddress(z: 0, x: 0, y: 0)!), .tile(TileAddress(z: 19, x: 524_287, y: 3)!),
        // docs/poster.md.
        .poster(id: "a b?c&d"), .poster(id: "poster"),
        // Found by schemathesis: an id that starts with a combining mark formed one Character with the
        // "/" before it, so the path split at no "/" and the API answered the HTML 404.
        .apiDetails(id: "\u{116B5}x"), .apiPhotos(id: "\u{301}"), .details(id: "\u{301}a"), .apiDocument,
    ])
    func a_routes_path_parses_back_to_the_same_route(route: Route) throws {
        let decoded = try #require(PercentDecoding.decode(route.path))

        #expect(Route(path: decoded) == route)
    }

    @Test func tile_addresses_outside_the_zoom_grid_do_not_exist() {
        #expect(TileAddress(z: 20, x: 0, y: 0) == nil)
        #expect(TileAddress(z: -1, x: 0, y: 0) == nil)
        #expect(TileAddress(z: 2, x: 4, y: 0) == nil)
        #expect(TileAddress(z: 2, x: 3, y: -1) == nil)
        #expect(TileAddress(z: 2, x: 3, y: 3)?.url(template: "https://t/{z}/{x}/{y}.png?z={z}") == "https://t/2/3/3.png?z=2")
        #expect(Route(path: "/tiles/2/3/3.png") == .tile(TileAddress(z: 2, x: 3, y: 3)!))
        #expect(Route(path: "/api/v1/announcements.geojson") == .apiGeoJSON)
    }

    @Test func links_to_our_own_files_are_unchanged_by_the_escaping() {
        #expect(Route.staticFile(path: "img/photo-placeholder.png").path == "/static/img/photo-placeholder.png")
        #expect(Route.image(path: "my cat.png").path == "/images/my%20cat.png")
    }
}
