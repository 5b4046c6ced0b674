import Foundation
import TestSupport
import Testing
import WebApp

/// The photo `<img data-photo>` tags of a page, as text.
func imageTags(_ html: String) -> [String] {
    var tags: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<img ") {
        guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
        let tag = String(rest[start.lowerBound...end])
        if tag.contains(" data-photo") { tags.append(tag) }
        rest = rest[rest.index(after: end)...]
    }
    return tags
}

/// The value of `name="…"` in a tag, HTML entities for `&` undone.
func attribute(_ name: String, in tag: String) -> String? {
    guard let start = tag.range(of: " \(name)=\"") else { return nil }
    guard let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
    return String(tag[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
}

extension ServerIntegration {
    /// Pages use the variants (docs/photos.md), and photo names with reserved characters
    /// round-trip page → our proxy → upstream as the very path the upstream named.
    @Suite("Photo links")
    struct PhotoLinksTests {
        /// (the upstream's `photoUrl`, the file name it serves, i.e. its single decoding)
        @Test(arguments: [
            ("/images/my cat.png", "my cat.png"),
            ("/images/my%20cat.png", "my cat.png"),
            ("/images/rabat%2541.png", "rabat%41.png"),
            ("/images/a+b.png", "a+b.png"),
            ("/images/a%2Bb.png", "a+b.png"),
            ("/images/hash%23tag.png", "hash#tag.png"),
            ("/images/what%3F.png", "what?.png"),
            ("/images/żaba.png", "żaba.png"),
            ("/images/%C5%BCaba.png", "żaba.png"),
            ("/images/2025/my%20dog%20%26%20cat.png", "2025/my dog & cat.png"),
        ])
        func a_photo_name_round_trips_from_page_to_upstream(photoURL: String, fileName: String) async throws {
            let list = PageJSON.list([PageJSON.item("p1", overrides: ["photoUrl": photoURL])])
            try await withApp(listJSON: list) { app in
                app.stub.setImage(path: "/images/" + fileName, bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let page = try await app.get("/pets")
                let tag = try #require(imageTags(page.text).first, "no photo on the card")
                let src = try #require(attribute("src", in: tag))
                let photo = try await app.get(src)
                let details = try await app.get("/pets/p1")
                let ogImage = try #require(Self.meta("og:image", in: details.text))
                let share = try await app.get(String(ogImage.dropFirst("https://petspot.example".count)))

                #expect(photo.status == 200, "\(src)")
                #expect(photo.header("Content-Type") == "image/webp")
                #expect(share.status == 200, "\(ogImage)")
                #expect(app.stub.requestCount(path: "/images/" + fileName) == 2, "the upstream was not asked for '\(fileName)'")
                #expect(
                    app.stub.requestCount() == app.stub.requestCount(path: "/images/" + fileName)
                        + app.stub.requestCount(path: "/api/v1/announcements")
                )
            }
        }

        @Test(arguments: ["/images/%2e%2e/api/health", "/images/..%2Fapi%2Fhealth", "/images/a%2F%2F..%2Fb.png"])
        func a_photo_path_that_leaves_images_after_decoding_stays_refused(photoURL: String) async throws {
            let list = PageJSON.list([PageJSON.item("p1", overrides: ["photoUrl": photoURL])])
            try await withApp(listJSON: list) { app in
                let page = try await app.get("/pets")

                #expect(page.status == 200)
                #expect(imageTags(page.text).isEmpty)
                #expect(page.text.contains("Image not available"))
                #expect(app.stub.requestCount(path: "/api/health") == 0)
            }
        }

        @Test func list_cards_offer_srcset_variants_with_a_fixed_box_lazy_loading_and_async_decoding() async throws {
            let list = PageJSON.list([PageJSON.item("p1", overrides: ["photoUrl": "/images/max.jpg"])])
            try await withApp(listJSON: list) { app in
                let tag = try #require(imageTags(try await app.get("/pets").text).first)

                #expect(attribute("src", in: tag) == "/images/max.jpg?w=640")
                #expect(attribute("srcset", in: tag) == "/images/max.jpg?w=320 320w, /images/max.jpg?w=640 640w, /images/max.jpg?w=1280 1280w")
                #expect(attribute("sizes", in: tag)?.isEmpty == false)
                #expect(attribute("width", in: tag) == "640")
                #expect(attribute("height", in: tag) == "480")
                #expect(attribute("loading", in: tag) == "lazy")
                #expect(attribute("decoding", in: tag) == "async")
            }
        }

        @Test func the_details_page_shows_a_large_variant_links_the_full_photo_and_shares_a_1200_wide_one() async throws {
            let list = PageJSON.list([PageJSON.item("p1", overrides: ["photoUrl": "/images/max.jpg"])])
            try await withApp(listJSON: list) { app in
                let html = try await app.get("/pets/p1").text
                let tag = try #require(imageTags(html).first)

                #expect(attribute("src", in: tag) == "/images/max.jpg?w=1280")
                #expect(attribute("srcset", in: tag)?.contains("/images/max.jpg?w=640 640w") == true)
                #expect(attribute("width", in: tag) == "1280")
                #expect(attribute("height", in: tag) == "960")
                #expect(attribute("loading", in: tag) == nil, "the details photo is above the fold")
                #expect(html.contains(#"<a href="/images/max.jpg">Open photo"#))
                #expect(Self.meta("og:image", in: html) == "https://petspot.example/images/max.jpg?w=1200")
            }
        }

        @Test(arguments: ["/images/drawing.svg", "https://cdn.example.com/max.jpg"])
        func svg_and_absolute_photos_are_linked_as_they_are(photoURL: String) async throws {
            let list = PageJSON.list([PageJSON.item("p1", overrides: ["photoUrl": photoURL])])
            try await withApp(listJSON: list) { app in
                let tag = try #require(imageTags(try await app.get("/pets").text).first)

                #expect(attribute("src", in: tag) == photoURL)
                #expect(attribute("srcset", in: tag) == nil)
            }
        }

        /// The `content` of `<meta property="NAME">`.
        static func meta(_ property: String, in html: String) -> String? {
            guard let start = html.range(of: "<meta property=\"\(property)\" content=\"") else { return nil }
            guard let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return String(html[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}
