import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing

/// Location from the query string and the permission-denied flow (docs/upstream.md §4, seed 002).
@Suite("Location flow")
struct LocationFlowTests {
    /// The link of the 400 page's "Try again" action.
    static func retryLink(_ html: String) -> String? {
        PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>Try again"#, in: html).first.map(PageHTML.unescape)
    }

    @Test(arguments: [
        ("/pets?lat=52.2297", "lng", "/pets"),
        ("/pets?lng=21.0122", "lat", "/pets"),
        ("/pets?lat=abc&lng=21.0122", "lat", "/pets"),
        ("/pets?lat=95&lng=21.0122", "lat", "/pets"),
        ("/pets?lat=52.2297&lng=181", "lng", "/pets"),
        ("/pets?lat=1e5&lng=21.0122", "lat", "/pets"),
        ("/?lat=52.2297", "lng", "/"),
        ("/?lat=95&lng=21.0122", "lat", "/"),
        ("/pets/det-x?lng=21.0122", "lat", "/pets/det-x"),
    ])
    func bad_location_is_a_400_page_naming_the_parameter_with_a_link_without_location(
        path: String,
        parameter: String,
        withoutLocation: String
    ) async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let response = try await app.get(path)

            #expect(response.status == 400)
            #expect(response.text.contains("‘\(parameter)’"))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            #expect(Self.retryLink(response.text) == withoutLocation)
            #expect(app.stub.requestCount() == 0)
        }
    }

    @Test func bad_location_on_a_filtered_list_links_to_the_same_filters_without_location() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?status=missing&species=cat&lat=abc&lng=21.0122&range=5")

            #expect(response.status == 400)
            let retry = try #require(Self.retryLink(response.text))
            #expect(PageHTML.query(of: retry) == ["status": "missing", "species": "cat"])
            #expect(retry.hasPrefix("/pets?"))
        }
    }

    @Test(arguments: ["/", "/pets"])
    func location_denied_shows_the_banner_with_the_exact_title_and_message(path: String) async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let response = try await app.get(path + "?location=denied")
            let html = response.text

            #expect(response.status == 200)
            let banner = try #require(PageHTML.section("location-banner", tag: "section", in: html))
            #expect(PageHTML.captures(#"<h2[^>]*>([^<]*)</h2>"#, in: banner) == ["Location Access Needed"])
            #expect(PageHTML.captures(#"<p>([^<]*)</p>"#, in: banner) == ["Enable location access in your browser settings to see nearby pets."])
            #expect(PageHTML.testIDCount("location-banner", in: html) == 1)
            #expect(html.contains(#"<body data-location="denied">"#))
        }
    }

    @Test func location_denied_still_lists_every_announcement() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            var ids: [String] = []
            for page in 1...3 {
                let response = try await app.get("/pets?location=denied&page=\(page)")
                #expect(response.status == 200)
                ids += PageHTML.petIDs(response.text)
            }
            let landing = try await app.get("/?location=denied")

            #expect(ids == ListPageTests.newestFirst)
            #expect(PageHTML.petIDs(landing.text).count == 5)
            #expect(PageHTML.testIDCount("distance", in: landing.text) == 0)
        }
    }

    @Test(arguments: ["/", "/pets", "/pets?lat=52.2297&lng=21.0122"])
    func without_location_denied_there_is_no_banner(path: String) async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get(path).text

            #expect(PageHTML.testIDCount("location-banner", in: html) == 0)
            #expect(!html.contains("Location Access Needed"))
        }
    }

    @Test func links_on_a_denied_page_do_not_carry_location_denied() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let html = try await app.get("/pets?location=denied&status=missing").text

            let links = PageHTML.hrefs(html)
            #expect(!PageHTML.petIDs(html).isEmpty)
            #expect(PageHTML.detailLinks(html).count >= 20)
            #expect(links.contains { $0.hasPrefix("/pets?") && $0.contains("page=2") })
            #expect(links.filter { $0.contains("location=") }.isEmpty)
            // The banner's "Try again" keeps the other parameters.
            let banner = try #require(PageHTML.section("location-banner", tag: "section", in: html))
            #expect(PageHTML.hrefs(banner).allSatisfy { $0 == "/pets?status=missing" })
            #expect(!html.contains(#"name="location""#))
        }
    }

    @Test func links_on_a_located_page_carry_lat_and_lng() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let html = try await app.get("/pets?lat=52.22971&lng=21.01219").text

            let siteLinks = PageHTML.hrefs(html).filter { $0 == "/" || $0.hasPrefix("/?") || $0.hasPrefix("/pets") }
            let cardLinks = PageHTML.detailLinks(html)
            #expect(cardLinks.count == 20)
            // Home, All pets (nav), every card and the pagination links.
            #expect(siteLinks.count >= 23)
            for link in siteLinks {
                let query = PageHTML.query(of: link)
                #expect(query["lat"] == "52.2297", "link \(link)")
                #expect(query["lng"] == "21.0122", "link \(link)")
            }
            #expect(html.contains(#"<input type="hidden" name="lat" value="52.2297">"#))
            #expect(html.contains(#"<body data-location="known">"#))
        }
    }

    @Test func coordinates_win_over_a_stale_location_denied() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get("/?lat=52.2297&lng=21.0122&location=denied").text

            #expect(PageHTML.testIDCount("location-banner", in: html) == 0)
            #expect(html.contains(#"<body data-location="known">"#))
            #expect(PageHTML.testIDCount("distance", in: html) == 5)
        }
    }

    @Test func a_located_list_asks_the_upstream_for_the_whole_list_without_location() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            _ = try await app.get("/pets?lat=52.2297&lng=21.0122")

            let query = try #require(app.stub.lastRequestQuery)
            #expect(query.all("lat").isEmpty)
            #expect(query.all("lng").isEmpty)
            #expect(query.all("range").isEmpty)
        }
    }

    @Test func unknown_location_value_is_a_400_naming_location() async throws {
        try await withApp { app in
            let response = try await app.get("/pets?location=granted")

            #expect(response.status == 400)
            #expect(response.text.contains("‘location’"))
        }
    }
}
