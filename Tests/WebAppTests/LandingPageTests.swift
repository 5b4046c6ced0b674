import Foundation
import HTTPTypes
import TestSupport
import Testing

// MARK: - Helpers shared by the page tests (LandingPageTests, ListPageTests, DetailsPageTests, …)

/// Small string/regex readers for rendered HTML. Namespaced so they cannot clash with other test files.
enum PageHTML {
    /// Every first capture group of `pattern` in `html`, in order.
    static func captures(_ pattern: String, in html: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let range = NSRange(html.startIndex..., in: html)
        return regex.matches(in: html, range: range).compactMap { match in
            Range(match.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    /// The `data-pet-id` of each `pet-card`, in page order.
    static func petIDs(_ html: String) -> [String] {
        captures(#"data-testid="pet-card" data-pet-id="([^"]*)""#, in: html).map(unescape)
    }

    /// How many times `needle` occurs in `html`.
    static func count(_ needle: String, in html: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }

    /// How many elements carry `data-testid="<id>"`.
    static func testIDCount(_ id: String, in html: String) -> Int {
        count(#"data-testid="\#(id)""#, in: html)
    }

    /// Every `href` value, entity-decoded (`&amp;` → `&`).
    static func hrefs(_ html: String) -> [String] {
        captures(#"href="([^"]*)""#, in: html).map(unescape)
    }

    /// The `content` of `<meta property|name="<key>">`.
    static func meta(_ key: String, in html: String) -> String? {
        captures(#"<meta (?:property|name)="\#(NSRegularExpression.escapedPattern(for: key))" content="([^"]*)">"#, in: html)
            .first.map(unescape)
    }

    /// The `<title>` text, entity-decoded.
    static func title(_ html: String) -> String? {
        captures(#"<title>([^<]*)</title>"#, in: html).first.map(unescape)
    }

    /// The element with `data-testid="<id>"` up to its closing tag name (first occurrence), for scoping checks.
    static func section(_ id: String, tag: String, in html: String) -> String? {
        captures(#"(<\#(tag)[^>]*data-testid="\#(id)".*?</\#(tag)>)"#, in: html).first
    }

    /// The text of each element with `data-testid="<id>"` that holds text only.
    static func texts(ofTestID id: String, in html: String) -> [String] {
        captures(#"data-testid="\#(id)"[^>]*>([^<]*)<"#, in: html).map(unescape)
    }

    /// Decodes the entities the Mustache renderer produces.
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The query items of a link such as `/pets?lat=1&page=2` as a dictionary (last value wins).
    static func query(of link: String) -> [String: String] {
        guard let components = URLComponents(string: link) else { return [:] }
        var result: [String: String] = [:]
        for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    /// The links to pet details pages (`/pets/<id>…`).
    static func detailLinks(_ html: String) -> [String] {
        hrefs(html).filter { $0.hasPrefix("/pets/") }
    }
}

/// Upstream announcement JSON for tests that need a variation not worth a fixture file.
enum PageJSON {
    /// One announcement in the current backend's shape (all 18 keys), with `overrides` applied
    /// (`NSNull()` for an explicit null).
    static func item(_ id: String, name: String? = "Pet", overrides: [String: Any] = [:]) -> [String: Any] {
        var row: [String: Any] = [
            "id": id, "petName": name as Any? ?? NSNull(), "species": "DOG", "breed": NSNull(), "sex": "UNKNOWN",
            "age": NSNull(), "description": NSNull(), "microchipNumber": NSNull(),
            "locationLatitude": 52.2297, "locationLongitude": 21.0122, "lastSeenDate": "2025-11-09",
            "email": NSNull(), "phone": NSNull(), "photoUrl": "/images/\(id).jpg", "status": "MISSING",
            "reward": NSNull(), "createdAt": "2025-11-10T10:00:00.000Z", "updatedAt": "2025-11-10T10:00:00.000Z",
        ]
        for (key, value) in overrides { row[key] = value }
        return row
    }

    /// `{"data":[…]}`.
    static func list(_ items: [[String: Any]]) -> String {
        text(["data": items])
    }

    /// Any JSON object as text.
    static func text(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `data` array of a list fixture.
    static func rows(ofListFixture name: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(try fixture(name).utf8))
        return try #require((object as? [String: Any])?["data"] as? [[String: Any]])
    }
}

// MARK: - Landing page

@Suite("Landing page")
struct LandingPageTests {
    /// land-01 … land-08 are valid (land-08 newest); three invalid rows are newer than all of them.
    static let newestFiveValid = ["land-08", "land-07", "land-06", "land-05", "land-04"]

    @Test func landing_shows_the_five_newest_valid_items_in_order() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let response = try await app.get("/")

            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(PageHTML.petIDs(response.text) == Self.newestFiveValid)
            #expect(PageHTML.testIDCount("pet-card", in: response.text) == 5)
        }
    }

    @Test func landing_never_shows_invalid_items_even_when_they_are_the_newest() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get("/").text

            #expect(!html.contains("land-bad-"))
            #expect(!html.contains("Newest invalid"))
        }
    }

    @Test func landing_has_the_recent_pets_section_with_the_list_inside_and_a_view_all_link() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get("/").text

            let recent = try #require(PageHTML.section("recent-pets", tag: "section", in: html))
            #expect(PageHTML.testIDCount("pet-list", in: recent) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: recent) == 5)
            let viewAll = try #require(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>View all"#, in: html).first)
            #expect(viewAll == "/pets")
        }
    }

    @Test func landing_without_location_shows_no_distance_at_all() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let html = try await app.get("/").text

            #expect(PageHTML.testIDCount("distance", in: html) == 0)
            #expect(!html.contains("km away"))
            #expect(html.contains(#"<body data-location="unknown">"#))
        }
    }

    @Test func landing_with_location_shows_a_distance_on_every_card_and_keeps_location_in_view_all() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            let response = try await app.get("/?lat=52.2297&lng=21.0122")
            let html = response.text

            #expect(response.status == 200)
            #expect(PageHTML.petIDs(html) == Self.newestFiveValid)
            let distances = PageHTML.texts(ofTestID: "distance", in: html)
            #expect(distances.count == 5)
            #expect(distances.allSatisfy { $0.range(of: #"^[0-9]+\.[0-9] km away$"#, options: .regularExpression) != nil })
            // land-08 is 0.018° north of the visitor: 2.0 km.
            #expect(distances.first == "2.0 km away")
            let viewAll = try #require(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>View all"#, in: html).first.map(PageHTML.unescape))
            #expect(viewAll.hasPrefix("/pets?"))
            #expect(PageHTML.query(of: viewAll)["lat"] == "52.2297")
            #expect(PageHTML.query(of: viewAll)["lng"] == "21.0122")
            #expect(html.contains(#"<body data-location="known">"#))
        }
    }

    @Test func landing_with_location_leaves_out_pets_farther_than_ten_km() async throws {
        let near = PageJSON.item("near", overrides: ["createdAt": "2025-11-10T10:00:00.000Z", "updatedAt": "2025-11-10T10:00:00.000Z"])
        // About 20 km north of the visitor, and newer.
        let far = PageJSON.item(
            "far",
            overrides: [
                "locationLatitude": 52.41, "createdAt": "2025-11-11T10:00:00.000Z",
                "updatedAt": "2025-11-11T10:00:00.000Z",
            ]
        )
        try await withApp(listJSON: PageJSON.list([near, far])) { app in
            let located = try await app.get("/?lat=52.2297&lng=21.0122").text
            let unlocated = try await app.get("/").text

            #expect(PageHTML.petIDs(located) == ["near"])
            #expect(PageHTML.petIDs(unlocated) == ["far", "near"])
        }
    }

    @Test func landing_with_no_announcements_shows_the_empty_state() async throws {
        try await withApp(listJSON: #"{"data":[]}"#) { app in
            let response = try await app.get("/")

            #expect(response.status == 200)
            #expect(PageHTML.testIDCount("empty-state", in: response.text) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: response.text) == 0)
        }
    }

    @Test func landing_upstream_down_is_a_502_page_with_a_retry_link() async throws {
        try await withApp(listJSON: try fixture("pages-landing.json")) { app in
            app.stub.setFault(.status(500))
            let response = try await app.get("/")

            #expect(response.status == 502)
            #expect(response.text.contains("Unable to load data. Please try again later."))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            let retry = try #require(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>Try again"#, in: response.text).first)
            #expect(retry == "/")
        }
    }
}
