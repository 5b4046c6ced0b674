import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Upstream text is untrusted: it must reach pages escaped, and unsafe photo URLs never reach `src`.
@Suite("Escaping")
struct EscapingTests {
    /// Unescaped output (`{{{x}}}`, `{{&x}}`) only in the text parts of mails (docs/templates.md "Escaping, and
    /// the one place it is turned off"): a page or HTML mail that prints an upstream string raw fails here.
    @Test func only_the_text_parts_of_mails_print_values_unescaped() throws {
        let folder = repositoryRoot.appendingPathComponent("Templates")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter {
            $0.hasSuffix(".mustache")
        }
        #expect(files.count >= 20)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let raw = text.contains("{{{") || text.contains("{{&")
            let allowed = file.hasPrefix("mail/") && file.hasSuffix("-text.mustache")
            #expect(!raw || allowed, "\(file) prints a value unescaped")
        }
    }

    static let script = "<script>alert(1)</script>"
    static let attributeBreaker = #""><img src=x onerror=alert(1)>"#
    static let singleQuoteBreaker = "' onmouseover='x"

    static func hostileRows() -> [[String: Any]] {
        [
            PageJSON.item(
                "xss-script",
                name: script,
                overrides: [
                    "description": script, "breed": script, "createdAt": "2025-11-12T10:00:00.000Z", "updatedAt": "2025-11-12T10:00:00.000Z",
                ]
            ),
            PageJSON.item(
                "xss-attr",
                name: attributeBreaker,
                overrides: [
                    "description": attributeBreaker, "breed": attributeBreaker, "reward": "500 PLN" + attributeBreaker,
                    "createdAt": "2025-11-11T10:00:00.000Z", "updatedAt": "2025-11-11T10:00:00.000Z",
                ]
            ),
            PageJSON.item(
                "xss-quote",
                name: singleQuoteBreaker,
                overrides: [
                    "description": singleQuoteBreaker, "breed": singleQuoteBreaker, "phone": singleQuoteBreaker,
                    "createdAt": "2025-11-10T10:00:00.000Z", "updatedAt": "2025-11-10T10:00:00.000Z",
                ]
            ),
        ]
    }

    /// Checks that none of the hostile strings appears raw and that the escaped form does.
    static func expectEscaped(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!html.contains("<script>alert(1)"), sourceLocation: sourceLocation)
        #expect(!html.contains("<img src=x"), sourceLocation: sourceLocation)
        #expect(!html.contains("onerror=alert(1)>\""), sourceLocation: sourceLocation)
        #expect(!html.contains("' onmouseover='"), sourceLocation: sourceLocation)
        #expect(!html.contains("\"><img src=x"), sourceLocation: sourceLocation)
        // Our own scripts only: Public/js/ and, on pages with a map, Debian's Leaflet under /static/vendor/.
        #expect(
            PageHTML.count("<script", in: html) == PageHTML.count("<script src=\"/static/js/", in: html)
                + PageHTML.count("<script src=\"/static/vendor/leaflet/", in: html),
            sourceLocation: sourceLocation
        )
    }

    @Test(arguments: ["/", "/pets"])
    func hostile_text_in_the_list_is_rendered_escaped(path: String) async throws {
        try await withApp(listJSON: PageJSON.list(Self.hostileRows())) { app in
            let response = try await app.get(path)

            #expect(response.status == 200)
            #expect(Set(PageHTML.petIDs(response.text)) == ["xss-script", "xss-attr", "xss-quote"])
            Self.expectEscaped(response.text)
            #expect(response.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(response.text.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
            #expect(response.text.contains("&#39; onmouseover=&#39;x"))
        }
    }

    @Test(arguments: ["xss-script", "xss-attr", "xss-quote"])
    func hostile_text_on_the_details_page_is_rendered_escaped(id: String) async throws {
        try await withApp { app in
            for row in Self.hostileRows() {
                app.stub.setDetails(id: try #require(row["id"] as? String), json: PageJSON.text(row))
            }
            let response = try await app.get("/pets/\(id)")

            #expect(response.status == 200)
            Self.expectEscaped(response.text)
            // Title and share tags escape too.
            let title = try #require(PageHTML.captures(#"<title>(.*?)</title>"#, in: response.text).first)
            #expect(!title.contains("<"))
            #expect(!title.contains("\""))
        }
    }

    @Test func the_script_tag_shows_escaped_on_the_details_page() async throws {
        try await withApp { app in
            let row = Self.hostileRows()[0]
            app.stub.setDetails(id: "xss-script", json: PageJSON.text(row))
            let html = try await app.get("/pets/xss-script").text

            #expect(html.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
            #expect(PageHTML.meta("og:title", in: html)?.hasPrefix(Self.script) == true)
        }
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "JaVaScRiPt:alert(1)",
        "//evil.example/x.jpg", "ftp://evil.example/x.jpg", "vbscript:msgbox(1)",
    ])
    func unsafe_photo_urls_never_reach_src_and_show_the_placeholder(photoURL: String) async throws {
        let row = PageJSON.item("bad-photo", name: "Patch", overrides: ["photoUrl": photoURL])
        try await withApp(listJSON: PageJSON.list([row])) { app in
            app.stub.setDetails(id: "bad-photo", json: PageJSON.text(row))
            let list = try await app.get("/pets")
            let details = try await app.get("/pets/bad-photo")

            for response in [list, details] {
                #expect(response.status == 200)
                let sources = PageHTML.captures(#"src="([^"]*)""#, in: response.text).map(PageHTML.unescape)
                #expect(sources.allSatisfy { $0.hasPrefix("/static/") }, "src values: \(sources)")
                #expect(!response.text.lowercased().contains("javascript:"))
                #expect(!response.text.contains("data:text"))
                #expect(!response.text.contains("evil.example"))
                #expect(response.text.contains("Image not available"))
            }
            #expect(PageHTML.petIDs(list.text) == ["bad-photo"])
            #expect(PageHTML.meta("og:image", in: details.text) == nil)
        }
    }

    @Test func an_id_with_markup_is_escaped_in_attributes_and_encoded_in_links() async throws {
        let id = #"a"><b>"#
        let row = PageJSON.item(id, name: "Odd id")
        try await withApp(listJSON: PageJSON.list([row])) { app in
            let html = try await app.get("/pets").text

            #expect(!html.contains(#"data-pet-id="a"><b>""#))
            #expect(PageHTML.petIDs(html) == [id])
            #expect(PageHTML.detailLinks(html).contains("/pets/a%22%3E%3Cb%3E"))
        }
    }
}
