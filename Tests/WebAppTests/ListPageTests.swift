import Foundation
import HTTPTypes
import TestSupport
import Testing
import WebApp

/// `pages-list.json`: pet-01 … pet-45 valid (pet-N created 7·N hours after Oct 1; FOUND when N % 3 == 0,
/// species by N % 4: CAT, DOG, BIRD, RABBIT), five invalid rows (bad-…) newer than all of them, and a
/// later duplicate of pet-01 (species OTHER) that must be dropped.
@Suite("List page")
struct ListPageTests {
    static let validIDs = (1...45).map { String(format: "pet-%02d", $0) }
    /// Newest first: pet-45 … pet-01.
    static let newestFirst = Array(validIDs.reversed())

    static func ids(where predicate: (Int) -> Bool) -> [String] {
        (1...45).reversed().filter(predicate).map { String(format: "pet-%02d", $0) }
    }

    static func paginationLinks(_ html: String) throws -> (previous: String?, next: String?) {
        let nav = try #require(PageHTML.section("pagination", tag: "nav", in: html))
        let previous = PageHTML.captures(#"href="([^"]*)" rel="prev""#, in: nav).first.map(PageHTML.unescape)
        let next = PageHTML.captures(#"href="([^"]*)" rel="next""#, in: nav).first.map(PageHTML.unescape)
        return (previous, next)
    }

    @Test func list_pages_through_all_valid_items_twenty_per_page_newest_first() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let page1 = try await app.get("/pets")
            let page2 = try await app.get("/pets?page=2")
            let page3 = try await app.get("/pets?page=3")

            #expect([page1.status, page2.status, page3.status] as [Int] == [200, 200, 200])
            let ids1 = PageHTML.petIDs(page1.text)
            let ids2 = PageHTML.petIDs(page2.text)
            let ids3 = PageHTML.petIDs(page3.text)
            #expect([ids1.count, ids2.count, ids3.count] as [Int] == [20, 20, 5])
            #expect(ids1 + ids2 + ids3 == Self.newestFirst)
            #expect(Set(ids1 + ids2 + ids3) == Set(Self.validIDs))
            for page in [page1, page2, page3] {
                #expect(!page.text.contains("bad-"))
                #expect(!page.text.contains("Duplicate of pet 1"))
                #expect(PageHTML.testIDCount("pet-list", in: page.text) == 1)
            }
        }
    }

    @Test func list_pagination_has_next_and_previous_links_that_lead_to_the_neighbouring_pages() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let page1 = try await app.get("/pets").text
            let page2 = try await app.get("/pets?page=2").text
            let page3 = try await app.get("/pets?page=3").text

            let links1 = try Self.paginationLinks(page1)
            #expect(links1.previous == nil)
            #expect(links1.next == "/pets?page=2")
            let links2 = try Self.paginationLinks(page2)
            #expect(links2.previous == "/pets")
            #expect(links2.next == "/pets?page=3")
            let links3 = try Self.paginationLinks(page3)
            #expect(links3.previous == "/pets?page=2")
            #expect(links3.next == nil)
            #expect(page2.contains("Page 2 of 3"))
        }
    }

    @Test func list_pagination_links_carry_the_filters_and_the_location() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            // 30 missing pets (N % 3 != 0), all within a few km of the visitor.
            let response = try await app.get("/pets?status=missing&sort=oldest&lat=52.2297&lng=21.0122")

            #expect(response.status == 200)
            let next = try #require(try Self.paginationLinks(response.text).next)
            let query = PageHTML.query(of: next)
            #expect(query["status"] == "missing")
            #expect(query["sort"] == "oldest")
            #expect(query["lat"] == "52.2297")
            #expect(query["lng"] == "21.0122")
            #expect(query["page"] == "2")
            let following = try await app.get(next)
            #expect(PageHTML.petIDs(following.text).count == 10)
            #expect(try Self.paginationLinks(following.text).previous.map(PageHTML.query(of:))?["status"] == "missing")
        }
    }

    @Test func list_with_one_page_has_no_pagination() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get("/pets").text

            #expect(PageHTML.petIDs(html).count == 8)
            #expect(PageHTML.testIDCount("pagination", in: html) == 0)
        }
    }

    @Test(arguments: ["missing", "found"])
    func list_status_filter_shows_only_that_status(status: String) async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let expected = Self.ids { status == "found" ? $0 % 3 == 0 : $0 % 3 != 0 }
            var seen: [String] = []
            for page in 1...3 {
                let response = try await app.get("/pets?status=\(status)&page=\(page)")
                if response.status == 404 { break }
                #expect(response.status == 200)
                seen += PageHTML.petIDs(response.text)
                let badges = Set(PageHTML.texts(ofTestID: "status-badge", in: response.text))
                #expect(badges == [status.uppercased()])
            }
            #expect(seen == expected)
        }
    }

    @Test func list_species_filter_shows_only_cats() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?species=cat")

            #expect(response.status == 200)
            #expect(PageHTML.petIDs(response.text) == Self.ids { $0 % 4 == 0 })
            #expect(response.text.contains(#"<option value="cat" selected>"#))
        }
    }

    @Test func list_filters_combine() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?status=found&species=rabbit")

            #expect(PageHTML.petIDs(response.text) == Self.ids { $0 % 3 == 0 && $0 % 4 == 3 })
        }
    }

    @Test func list_sort_oldest_reverses_the_order() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?sort=oldest")

            #expect(PageHTML.petIDs(response.text) == Array(Self.validIDs.prefix(20)))
        }
    }

    @Test func list_sort_nearest_orders_by_distance_and_shows_distances() async throws {
        let rows = [
            // Newest is farthest, oldest is nearest.
            PageJSON.item(
                "five-km",
                overrides: ["locationLatitude": 52.2747, "createdAt": "2025-11-12T10:00:00.000Z", "updatedAt": "2025-11-12T10:00:00.000Z"]
            ),
            PageJSON.item(
                "one-km",
                overrides: ["locationLatitude": 52.2387, "createdAt": "2025-11-10T10:00:00.000Z", "updatedAt": "2025-11-10T10:00:00.000Z"]
            ),
            PageJSON.item(
                "three-km",
                overrides: ["locationLatitude": 52.2567, "createdAt": "2025-11-11T10:00:00.000Z", "updatedAt": "2025-11-11T10:00:00.000Z"]
            ),
        ]
        try await withApp(listJSON: PageJSON.list(rows)) { app in
            let nearest = try await app.get("/pets?sort=nearest&lat=52.2297&lng=21.0122")
            let newest = try await app.get("/pets?lat=52.2297&lng=21.0122")

            #expect(nearest.status == 200)
            #expect(PageHTML.petIDs(nearest.text) == ["one-km", "three-km", "five-km"])
            #expect(PageHTML.texts(ofTestID: "distance", in: nearest.text) == ["1.0 km away", "3.0 km away", "5.0 km away"])
            #expect(PageHTML.petIDs(newest.text) == ["five-km", "three-km", "one-km"])
        }
    }

    @Test func list_sort_nearest_without_location_is_a_400_naming_sort() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?sort=nearest")

            #expect(response.status == 400)
            #expect(response.text.contains("‘sort’"))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: response.text) == 0)
        }
    }

    @Test(arguments: [
        ("status=lost-ish", "status"), ("species=dinosaur", "species"), ("page=0", "page"), ("page=abc", "page"),
        ("sort=random", "sort"), ("range=0&lat=52.2297&lng=21.0122", "range"), ("status=missing&status=found", "status"),
    ])
    func list_bad_parameter_is_a_400_page_naming_it(query: String, parameter: String) async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?\(query)")

            #expect(response.status == 400)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(response.text.contains("‘\(parameter)’"))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            // The upstream is not asked for a request that cannot be answered.
            #expect(app.stub.requestCount(path: "/api/v1/announcements") == 0)
        }
    }

    @Test func list_page_beyond_the_last_is_a_404() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?page=4")

            #expect(response.status == 404)
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: response.text) == 0)
            #expect(PageHTML.hrefs(response.text).contains("/pets"))
        }
    }

    @Test func list_with_no_match_shows_the_empty_state_with_a_way_back() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            let response = try await app.get("/pets?species=other")

            #expect(response.status == 200)
            #expect(PageHTML.testIDCount("empty-state", in: response.text) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: response.text) == 0)
            #expect(response.text.contains("No pets match these filters."))
        }
    }

    @Test func list_with_an_empty_upstream_shows_the_empty_state() async throws {
        try await withApp(listJSON: #"{"data":[]}"#) { app in
            let response = try await app.get("/pets")

            #expect(response.status == 200)
            #expect(PageHTML.testIDCount("empty-state", in: response.text) == 1)
            #expect(PageHTML.testIDCount("pagination", in: response.text) == 0)
        }
    }

    @Test(arguments: [StubUpstream.Fault.status(500), .malformedJSON, .nullData, .wrongContentType])
    func list_upstream_failure_is_a_502_with_the_message_and_a_retry_link(fault: StubUpstream.Fault) async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            app.stub.setFault(fault)
            let response = try await app.get("/pets?status=missing")

            #expect(response.status == 502)
            #expect(response.text.contains("Unable to load data. Please try again later."))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            let retry = try #require(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>Try again"#, in: response.text).first)
            #expect(PageHTML.unescape(retry) == "/pets?status=missing")
            #expect(response.header("Cache-Control") == "no-store")
        }
    }

    @Test func list_upstream_refusing_connections_is_a_502() async throws {
        // A port that was just in use and is now closed: connections are refused at once.
        let gone = try StubUpstream.start()
        let goneURL = gone.baseURL
        await gone.stop()
        try await withApp(
            listJSON: try fixture("pages-list.json"),
            configure: { configuration in
                configuration.upstreamURL = URL(string: goneURL)
            }
        ) { app in
            let response = try await app.get("/pets")

            // Known bug (not fixed here): AsyncHTTPClient keeps retrying a refused connection until the
            // request deadline, so a refused upstream answers 504 after the whole timeout, not 502 at once.
            #expect(response.status == 502)
            #expect(response.text.contains("Unable to load data. Please try again later."))
        }
    }

    @Test func list_slow_upstream_is_a_504() async throws {
        try await withApp(listJSON: try fixture("pages-list.json")) { app in
            app.stub.setFault(.slow(.seconds(3)))
            let response = try await app.get("/pets")

            #expect(response.status == 504)
            #expect(response.text.contains("Unable to load data. Please try again later."))
            #expect(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>Try again"#, in: response.text).first == "/pets")
        }
    }
}
