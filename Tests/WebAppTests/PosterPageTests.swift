import Foundation
import QRCode
import TestSupport
import Testing

/// docs/poster.md: `/pets/{id}/poster` for a missing and a found pet in both languages, the 404 for
/// an unknown id, escaping, and the QR code's modules read back from the SVG to the share URL.
@Suite("Poster")
struct PosterPageTests {
    static var json: String { PageJSON.list(rows) }

    static var rows: [[String: Any]] {
        [
            PageJSON.item(
                "lost-female",
                name: "Luna",
                overrides: [
                    "sex": "FEMALE", "status": "MISSING", "phone": "+48 601 234 567", "email": "owner@example.com", "reward": "500 PLN",
                    "description": "Small black cat with a white patch on her chest.", "locationLatitude": 51.0725, "locationLongitude": 16.996,
                ]
            ),
            PageJSON.item("lost-male", name: "Max", overrides: ["sex": "MALE"]),
            PageJSON.item("lost-unknown", name: "Kiwi", overrides: ["sex": "UNKNOWN", "species": "BIRD"]),
            PageJSON.item("found-cat", name: "Tiger", overrides: ["sex": "MALE", "status": "FOUND", "species": "CAT"]),
            PageJSON.item(
                "xss-poster",
                name: EscapingTests.script,
                overrides: [
                    "description": EscapingTests.attributeBreaker, "breed": EscapingTests.script, "phone": EscapingTests.singleQuoteBreaker,
                ]
            ),
        ]
    }

    static func headline(_ html: String) -> String? {
        PageHTML.captures(#"<h1 class="poster-headline">([^<]*)</h1>"#, in: html).first.map(PageHTML.unescape)
    }

    /// The QR code's modules, read back from the page's SVG path (`QRCode.svgPath`'s squares).
    static func qrModules(_ html: String) throws -> (modules: [Bool], width: Int) {
        let sizeText = PageHTML.captures(#"data-testid="poster-qr"[^>]*viewBox="0 0 (\d+) "#, in: html).first ?? ""
        let size = try #require(Int(sizeText))
        let path = try #require(PageHTML.captures(##"<path d="([^"]*)" fill="#000"/>"##, in: html).first)
        let width = size - 8
        return (try #require(QRCode.modules(fromSVGPath: path, width: width)), width)
    }

    @Test func poster_of_a_missing_and_a_found_pet_in_both_languages() async throws {
        try await withApp(listJSON: Self.json) { app in
            let english = try await app.get("/pets/lost-female/poster")
            #expect(english.status == 200)
            #expect(PageHTML.testIDCount("poster", in: english.text) == 1)
            #expect(PageHTML.testIDCount("poster-qr", in: english.text) == 1)
            #expect(Self.headline(english.text) == "LOST")
            #expect(english.text.contains("+48 601 234 567"))
            #expect(english.text.contains("owner@example.com"))
            #expect(english.text.contains("Reward 500 PLN"))
            #expect(PageHTML.texts(ofTestID: "place-name", in: english.text) == ["Krzyki, Wrocław"])
            #expect(PageHTML.texts(ofTestID: "poster-url", in: english.text) == ["https://petspot.example/pets/lost-female?lang=en"])

            let polish = [
                ("lost-female", "ZAGINĘŁA"), ("lost-male", "ZAGINĄŁ"), ("lost-unknown", "ZAGINĘŁO ZWIERZĘ"),
                ("found-cat", "ZNALEZIONO"),
            ]
            for (id, expected) in polish {
                let html = try await app.get("/pets/\(id)/poster?lang=pl").text
                #expect(Self.headline(html) == expected, "\(id)")
                #expect(PageHTML.texts(ofTestID: "poster-url", in: html) == ["https://petspot.example/pets/\(id)?lang=pl"])
            }
            let found = try await app.get("/pets/found-cat/poster?lang=en").text
            #expect(Self.headline(found) == "FOUND")
            // The details page links to its poster in its language.
            let details = try await app.get("/pets/lost-female?lang=pl").text
            #expect(PageHTML.hrefs(details).contains("/pets/lost-female/poster?lang=pl"))
        }
    }

    @Test func unknown_id_is_the_404_page() async throws {
        try await withApp(listJSON: Self.json) { app in
            let response = try await app.get("/pets/no-such-pet/poster?lang=pl")
            #expect(response.status == 404)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(PageHTML.testIDCount("poster", in: response.text) == 0)
            #expect(response.text.contains("lang=\"pl\""))
        }
    }

    @Test func upstream_text_on_the_poster_is_escaped() async throws {
        try await withApp(listJSON: Self.json) { app in
            let html = try await app.get("/pets/xss-poster/poster").text
            EscapingTests.expectEscaped(html)
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test func the_qr_code_in_the_svg_is_the_share_url_encoded_by_libqrencode() async throws {
        try await withApp(listJSON: Self.json) { app in
            for lang in ["en", "pl"] {
                let html = try await app.get("/pets/lost-female/poster?lang=\(lang)").text
                let (modules, width) = try Self.qrModules(html)
                let expected = try #require(QRCode("https://petspot.example/pets/lost-female?lang=\(lang)"))
                #expect(width == expected.width)
                #expect(modules == expected.modules)
                // And not the other language's code: the matrix depends on the URL.
                let other = try #require(QRCode("https://petspot.example/pets/lost-female?lang=\(lang == "en" ? "pl" : "en")"))
                #expect(modules != other.modules)
            }
        }
    }

    @Test func qr_code_matrix_has_the_finder_patterns_of_iso_18004() throws {
        let code = try #require(QRCode("https://petspot.example/pets/lost-female?lang=en"))
        #expect(code.width >= 21 && (code.width - 21) % 4 == 0)
        // Each corner's finder pattern: a dark 7×7 ring around a light ring around a dark 3×3 core.
        for (top, left) in [(0, 0), (0, code.width - 7), (code.width - 7, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.isDark(row: top + row, column: left + column) == (ring != 2), "\(top),\(left) \(row),\(column)")
                }
            }
        }
        #expect(QRCode(String(repeating: "x", count: 8_000)) == nil)
    }
}
