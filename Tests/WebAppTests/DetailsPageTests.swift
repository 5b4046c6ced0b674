import Foundation
import HTTPTypes
import TestSupport
import Testing

/// `pages-details-max.json`: a complete MISSING dog; `pages-details-luna.json`: a FOUND cat in the
/// southern/western hemispheres with no photo, no breed, no email, no reward and a `555-PETS` phone.
@Suite("Details page")
struct DetailsPageTests {
    /// Starts the app with Max and Luna programmed as details.
    static func withPets<T>(_ body: (TestApp) async throws -> T) async throws -> T {
        try await withApp { app in
            app.stub.setDetails(id: "det-max", json: try fixture("pages-details-max.json"))
            app.stub.setDetails(id: "det-luna", json: try fixture("pages-details-luna.json"))
            return try await body(app)
        }
    }

    /// The `<dd>` value of the details row labelled `label` (tags stripped, entities decoded).
    static func row(_ label: String, in html: String) -> String? {
        PageHTML.captures(#"<dt>\#(label)</dt>\s*<dd[^>]*>(.*?)</dd>"#, in: html).first.map {
            PageHTML.unescape($0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression))
        }
    }

    @Test func details_shows_the_formatted_values_of_the_pet() async throws {
        try await Self.withPets { app in
            let response = try await app.get("/pets/det-max")
            let html = response.text

            #expect(response.status == 200)
            #expect(PageHTML.testIDCount("pet-details", in: html) == 1)
            #expect(html.contains(#"data-testid="pet-details" data-pet-id="det-max""#))
            #expect(Self.row("Last seen", in: html) == "Nov 18, 2025")
            #expect(Self.row("Sex", in: html) == "♂ Male")
            #expect(Self.row("Microchip", in: html) == "123-456-789-012-345")
            #expect(Self.row("Age", in: html) == "5 years")
            #expect(Self.row("Coordinates", in: html) == "52.2297° N, 21.0122° E")
            #expect(Self.row("Breed", in: html) == "Golden Retriever")
            #expect(PageHTML.texts(ofTestID: "reward-badge", in: html) == ["Reward 500 PLN"])
            #expect(PageHTML.texts(ofTestID: "status-badge", in: html) == ["MISSING"])
            #expect(html.contains("<h1>Max</h1>"))
            #expect(html.contains("Friendly golden retriever, answers to Max.\nHas a blue collar."))
        }
    }

    @Test func details_formats_a_single_digit_day_one_year_female_and_southern_western_coordinates() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-luna").text

            #expect(Self.row("Last seen", in: html) == "Nov 05, 2025")
            #expect(Self.row("Age", in: html) == "1 year")
            #expect(Self.row("Sex", in: html) == "♀ Female")
            #expect(Self.row("Coordinates", in: html) == "33.8688° S, 70.6483° W")
            #expect(PageHTML.texts(ofTestID: "status-badge", in: html) == ["FOUND"])
            #expect(PageHTML.testIDCount("reward-badge", in: html) == 0)
        }
    }

    @Test func details_shows_a_dash_for_missing_optional_values() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-luna").text

            #expect(Self.row("Breed", in: html) == "—")
            #expect(Self.row("Microchip", in: html) == "—")
            #expect(Self.row("Reward", in: html) == "—")
            // No contact person in the data: no row naming one (phone and e-mail are listed below).
            #expect(Self.row("Contact person", in: html) == nil)
            #expect(Self.row("Contact", in: html) == nil)
            // A missing email is not shown at all (the contact section lists only what exists).
            #expect(!html.contains("mailto:"))
        }
    }

    @Test func details_without_a_photo_shows_the_placeholder_and_no_og_image() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-luna").text

            #expect(html.contains("Image not available"))
            #expect(!html.contains(#"class="pet-photo""#))
            #expect(PageHTML.meta("og:image", in: html) == nil)
            #expect(PageHTML.meta("twitter:card", in: html) == "summary")
        }
    }

    @Test func details_links_a_phone_of_digits_and_punctuation_with_tel_and_a_valid_email_with_mailto() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-max").text

            let tel = PageHTML.hrefs(html).filter { $0.hasPrefix("tel:") }
            #expect(!tel.isEmpty)
            #expect(tel.allSatisfy { $0.range(of: #"^tel:\+?[0-9]+$"#, options: .regularExpression) != nil })
            #expect(tel.first == "tel:+48601234567")
            #expect(PageHTML.hrefs(html).contains("mailto:owner@example.com"))
            #expect(html.contains("+48 (601) 234-567"))
        }
    }

    @Test func details_shows_a_free_text_phone_as_text_without_a_tel_link() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-luna").text

            #expect(html.contains("555-PETS"))
            #expect(!html.contains("tel:"))
            #expect(!html.contains("mailto:"))
        }
    }

    @Test func details_does_not_show_an_invalid_email() async throws {
        let row = PageJSON.item("bad-mail", overrides: ["email": "not an email"])
        try await withApp { app in
            app.stub.setDetails(id: "bad-mail", json: PageJSON.text(row))
            let response = try await app.get("/pets/bad-mail")

            #expect(response.status == 200)
            #expect(!response.text.contains("not an email"))
            #expect(!response.text.contains("mailto:"))
        }
    }

    @Test func details_has_a_show_on_the_map_link_to_openstreetmap_with_the_coordinates() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-max").text

            let map = try #require(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>Show on the map"#, in: html).first.map(PageHTML.unescape))
            let components = try #require(URLComponents(string: map))
            #expect(components.host?.hasSuffix("openstreetmap.org") == true)
            #expect(PageHTML.query(of: map)["mlat"].flatMap(Double.init) == 52.2297)
            #expect(PageHTML.query(of: map)["mlon"].flatMap(Double.init) == 21.0122)
        }
    }

    @Test func details_has_a_share_button_title_and_share_tags() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-max").text

            #expect(PageHTML.testIDCount("share-button", in: html) == 1)
            let title = try #require(PageHTML.title(html))
            #expect(title.contains("Max"))
            #expect(PageHTML.meta("og:title", in: html)?.contains("Max") == true)
            let description = try #require(PageHTML.meta("og:description", in: html))
            #expect(description.contains("Friendly golden retriever"))
            #expect(PageHTML.meta("og:image", in: html) == "https://petspot.example/images/max.jpg?w=1200")
            #expect(PageHTML.meta("og:url", in: html) == "https://petspot.example/pets/det-max")
            #expect(PageHTML.meta("twitter:card", in: html) == "summary_large_image")
            #expect(html.contains(#"data-share-url="https://petspot.example/pets/det-max""#))
        }
    }

    @Test func details_og_url_is_canonical_even_when_visited_with_a_location() async throws {
        try await Self.withPets { app in
            let html = try await app.get("/pets/det-max?lat=52.2297&lng=21.0122").text

            #expect(PageHTML.meta("og:url", in: html) == "https://petspot.example/pets/det-max")
            #expect(Self.row("Distance", in: html) == "0.0 km away")
        }
    }

    @Test func details_keeps_an_absolute_https_photo_as_og_image() async throws {
        let row = PageJSON.item("abs-photo", overrides: ["photoUrl": "https://cdn.example.org/p/abs.jpg"])
        try await withApp { app in
            app.stub.setDetails(id: "abs-photo", json: PageJSON.text(row))
            let html = try await app.get("/pets/abs-photo").text

            #expect(PageHTML.meta("og:image", in: html) == "https://cdn.example.org/p/abs.jpg")
            #expect(html.contains(#"src="https://cdn.example.org/p/abs.jpg""#))
        }
    }

    @Test func details_of_an_unknown_pet_is_a_404_page_linking_to_the_list() async throws {
        try await Self.withPets { app in
            let response = try await app.get("/pets/no-such-pet")

            #expect(response.status == 404)
            #expect(response.text.contains("This pet could not be found."))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            #expect(PageHTML.captures(#"<a [^>]*href="([^"]*)"[^>]*>See all pets"#, in: response.text).first == "/pets")
        }
    }

    @Test func details_with_invalid_upstream_data_is_a_502() async throws {
        let row = PageJSON.item("dino", name: "Rex", overrides: ["species": "DINOSAUR"])
        try await withApp { app in
            app.stub.setDetails(id: "dino", json: PageJSON.text(row))
            let response = try await app.get("/pets/dino")

            #expect(response.status == 502)
            #expect(response.text.contains("Unable to load pet details"))
            #expect(!response.text.contains("DINOSAUR"))
            #expect(!response.text.contains("Rex"))
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
        }
    }

    @Test func details_upstream_down_is_a_502_and_slow_upstream_a_504() async throws {
        try await Self.withPets { app in
            app.stub.setFault(.status(500))
            let down = try await app.get("/pets/det-max")
            app.stub.setFault(.slow(.seconds(3)))
            let slow = try await app.get("/pets/det-luna")

            #expect(down.status == 502)
            #expect(down.text.contains("Unable to load pet details"))
            #expect(slow.status == 504)
        }
    }

    @Test func details_upstream_failure_retry_link_is_the_same_url_with_its_query() async throws {
        try await Self.withPets { app in
            app.stub.setFault(.status(503))
            let response = try await app.get("/pets/det-max?lat=52.2297&lng=21.0122")

            #expect(response.status == 502)
            let retry = try #require(LocationFlowTests.retryLink(response.text))
            #expect(retry.hasPrefix("/pets/det-max?"))
            #expect(PageHTML.query(of: retry) == ["lat": "52.2297", "lng": "21.0122"])
        }
    }

    @Test func details_id_in_the_path_is_percent_decoded_and_canonical_url_re_encodes_it() async throws {
        let row = PageJSON.item("a b", name: "Spacey")
        try await withApp { app in
            app.stub.setDetails(id: "a b", json: PageJSON.text(row))
            let response = try await app.get("/pets/a%20b")

            #expect(response.status == 200)
            #expect(PageHTML.meta("og:url", in: response.text) == "https://petspot.example/pets/a%20b")
        }
    }
}
