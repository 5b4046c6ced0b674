import Foundation
import TestSupport
import Testing
import WebApp

/// `GET /map` and the details page's small map (docs/map.md), over `pages-list.json` (pet-N at
/// 52.2297 + N·0.001° N, 21.0122° E; FOUND when N % 3 == 0; species by N % 4: CAT, DOG, BIRD, RABBIT).
@Suite("Map page")
struct MapPageTests {
    /// The `data-pet-id` of each place of the map's list, in page order.
    static func placeIDs(_ html: String) -> [String] {
        PageHTML.captures(#"data-testid="map-place" data-pet-id="([^"]*)""#, in: html).map(PageHTML.unescape)
    }

    /// The `href` of the link marked `data-testid="<id>"`.
    static func link(_ id: String, in html: String) -> String? {
        PageHTML.captures(#"href="([^"]*)" data-testid="\#(id)""#, in: html).first.map(PageHTML.unescape)
    }

    @Test func the_map_lists_every_matching_announcement_without_pages_each_with_its_pin_data_and_links() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/map")

            #expect(response.status == 200)
            let html = response.text
            #expect(Self.placeIDs(html) == ListPageTests.newestFirst)
            #expect(PageHTML.count("data-lat=", in: html) == 45)
            #expect(html.contains(#"data-pet-id="pet-07" data-lat="52.2367" data-lng="21.0122" data-status="missing""#))
            #expect(html.contains(#"data-pet-id="pet-06" data-lat="52.2357" data-lng="21.0122" data-status="found""#))
            for id in ["pet-01", "pet-45"] {
                #expect(PageHTML.hrefs(html).contains("/pets/\(id)"))
            }
            #expect(PageHTML.count("Show on the map", in: html) == 45)
            #expect(PageHTML.hrefs(html).contains("https://www.openstreetmap.org/?mlat=52.23670&mlon=21.01220#map=16/52.23670/21.01220"))
            #expect(html.contains(#"data-tiles="/tiles/{z}/{x}/{y}.png""#))
            #expect(html.contains("© OpenStreetMap contributors"))
            #expect(html.contains(#"<script src="/static/vendor/leaflet/leaflet.min.js" defer></script>"#))
            #expect(html.contains(#"<script src="/static/vendor/leaflet/leaflet.markercluster.min.js" defer></script>"#))
            #expect(PageHTML.title(html) == "Map: Lost and found pets · PetSpot")
        }
    }

    @Test func status_and_species_narrow_the_map() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/map?status=found&species=cat")

            #expect(response.status == 200)
            #expect(Self.placeIDs(response.text) == ["pet-36", "pet-24", "pet-12"])
            #expect(response.text.contains("3 pets"))
        }
    }

    @Test func a_located_map_shows_distances_the_visitor_and_the_range_circle() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/map?lat=52.2297&lng=21.0122&range=2&sort=nearest")

            let html = response.text
            #expect(response.status == 200)
            #expect(Self.placeIDs(html) == (1...17).map { String(format: "pet-%02d", $0) })
            #expect(PageHTML.texts(ofTestID: "distance", in: html).first == "0.1 km away")
            #expect(html.contains(#"data-visitor-lat="52.2297" data-visitor-lng="21.0122" data-range-m="2000""#))
            #expect(html.contains("17 pets within 2 km of you"))
        }
    }

    @Test(arguments: [
        ("lat=52.2", "lng"), ("lat=x&lng=21", "lat"), ("range=abc", "range"), ("status=lost", "status"),
        ("species=unicorn", "species"), ("sort=nearest", "sort"),
    ])
    func a_bad_parameter_gets_the_same_400_page_as_the_list(query: String, parameter: String) async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let map = try await app.get("/map?\(query)")
            let list = try await app.get("/pets?\(query)")

            #expect(map.status == 400)
            #expect(map.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(map.text.contains("The parameter ‘\(parameter)’ is not valid"))
            let message = PageHTML.captures(#"<p class="error-text">([^<]*)<"#, in: map.text)
            #expect(message.count == 1)
            #expect(message == PageHTML.captures(#"<p class="error-text">([^<]*)<"#, in: list.text))
        }
    }

    @Test func the_list_and_the_map_link_to_each_other_keeping_the_query() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let list = try await app.get("/pets?status=missing&species=dog&lat=52.2297&lng=21.0122&range=3&page=1")
            let map = try await app.get("/map?status=missing&species=dog&lat=52.2297&lng=21.0122&range=3")

            #expect(Self.link("map-link", in: list.text) == "/map?status=missing&species=dog&lat=52.2297&lng=21.0122&range=3")
            #expect(Self.link("list-link", in: map.text) == "/pets?status=missing&species=dog&lat=52.2297&lng=21.0122&range=3")
            let plain = try await app.get("/pets?species=cat")
            #expect(Self.link("map-link", in: plain.text) == "/map?species=cat")
        }
    }

    @Test func upstream_text_on_the_map_page_is_escaped() async throws {
        try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
            let html = try await app.get("/map").text

            #expect(!html.contains("<b>Rex</b>"))
            #expect(html.contains("&lt;b&gt;Rex&lt;/b&gt; &amp;amp; co"))
        }
    }

    @Test func a_map_without_matches_says_so() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/map?status=closed")

            #expect(response.status == 200)
            #expect(Self.placeIDs(response.text).isEmpty)
            #expect(PageHTML.testIDCount("empty-state", in: response.text) == 1)
            #expect(response.text.contains("No pets match these filters."))
        }
    }

    @Test func a_details_page_has_a_small_map_with_the_pets_pin_and_keeps_the_openstreetmap_link() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let html = try await app.get("/pets/pet-07").text

            #expect(PageHTML.testIDCount("pet-map", in: html) == 1)
            #expect(html.contains(#"data-lat="52.2367" data-lng="21.0122" data-status="missing""#))
            #expect(html.contains("Map of where Pet 7 was last seen"))
            #expect(html.contains("Show on the map"))
            #expect(PageHTML.hrefs(html).contains("https://www.openstreetmap.org/?mlat=52.23670&mlon=21.01220#map=16/52.23670/21.01220"))
            #expect(html.contains(#"<script src="/static/js/map.js" defer></script>"#))
        }
    }

    @Test func pages_without_a_map_do_not_load_the_map_libraries() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let list = try await app.get("/pets").text

            #expect(!list.contains("leaflet"))
            #expect(!list.contains("map.js"))
        }
    }

    @Test(arguments: ["leaflet.min.js", "leaflet.markercluster.min.js", "leaflet.css", "MarkerCluster.css", "images/marker-icon.png"])
    func the_map_libraries_are_served_from_debians_files(file: String) async throws {
        try await withApp { app in
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/javascript/leaflet/\(file)"))

            let response = try await app.get("/static/vendor/leaflet/\(file)")

            #expect(response.status == 200)
            #expect(response.body == onDisk)
            #expect(response.header("ETag") != nil)
        }
    }

    @Test func a_missing_map_library_stops_startup_naming_its_debian_package() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-js-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent("leaflet"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }

        let error = await #expect(throws: StartupError.self) {
            try await withApp(configure: { $0.javascriptDirectory = empty.path }) { _ in }
        }

        #expect(error?.description.contains("libjs-leaflet") == true)
        #expect(error?.description.contains("--javascript-dir / PETSPOT_JAVASCRIPT_DIR") == true)
    }
}
