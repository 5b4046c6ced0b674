import Foundation
import HTTPTypes
import TestSupport
import Testing
import WebApp

/// HTTP-level behaviour of pages: HEAD, ETag/304, Cache-Control, no cookies, redirects, stale copies.
@Suite("Page caching and HTTP")
struct PageCachingTests {
    static func withPets<T>(
        listJSON: String? = nil,
        configure: (inout AppConfiguration) -> Void = { _ in },
        _ body: (TestApp) async throws -> T
    ) async throws -> T {
        try await withApp(listJSON: try listJSON ?? fixture("pages-landing.json"), configure: configure) { app in
            app.stub.setDetails(id: "det-max", json: try fixture("pages-details-max.json"))
            return try await body(app)
        }
    }

    @Test(arguments: ["/", "/pets", "/pets/det-max"])
    func head_on_a_page_is_200_with_no_body(path: String) async throws {
        try await Self.withPets { app in
            let get = try await app.get(path)
            let head = try await app.get(path, method: "HEAD")

            #expect(get.status == 200)
            #expect(!get.body.isEmpty)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(withoutQuickMark(head.header("ETag")) == withoutQuickMark(get.header("ETag")))
        }
    }

    @Test(arguments: ["/", "/pets", "/pets/det-max", "/pets?lat=52.2297&lng=21.0122&status=missing"])
    func a_matching_if_none_match_gets_a_304_without_a_body(path: String) async throws {
        try await Self.withPets { app in
            let first = try await app.get(path)
            let etag = try #require(first.header("ETag"))
            let second = try await app.get(path, headers: ["If-None-Match": etag])
            let other = try await app.get(path, headers: ["If-None-Match": "\"0000000000000000\""])

            #expect(first.status == 200)
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.header("ETag") == etag)
            #expect(other.status == 200)
            #expect(other.body == first.body)
        }
    }

    @Test func a_page_etag_changes_when_the_content_changes() async throws {
        try await Self.withPets { app in
            let first = try await app.get("/pets")
            let second = try await app.get("/pets?status=found")

            #expect(first.header("ETag") != nil)
            #expect(first.header("ETag") != second.header("ETag"))
        }
    }

    @Test(arguments: ["/", "/pets", "/pets/det-max"])
    func pages_have_a_public_cache_control(path: String) async throws {
        try await Self.withPets { app in
            let response = try await app.get(path)

            let cacheControl = try #require(response.header("Cache-Control"))
            #expect(cacheControl.contains("max-age="))
            #expect(!cacheControl.contains("private"))
        }
    }

    @Test(arguments: ["/pets?page=0", "/pets/no-such-pet", "/no/such/page"])
    func error_pages_are_not_stored(path: String) async throws {
        try await Self.withPets { app in
            let response = try await app.get(path)

            #expect(response.status >= 400)
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("ETag") == nil)
        }
    }

    @Test func nothing_ever_sets_a_cookie() async throws {
        try await Self.withPets { app in
            app.stub.setImage(path: "max.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], contentType: "image/jpeg")
            let paths = [
                "/", "/pets", "/pets/det-max", "/pets?location=denied", "/?lat=52.2297&lng=21.0122",
                "/pets?page=0", "/pets?page=99", "/pets/no-such-pet", "/nowhere", "/lost-pets", "/lost-pets/det-max",
                "/static/css/site.css", "/static/js/location.js", "/favicon.ico", "/images/max.jpg", "/images/missing.jpg",
                "/api/v1/announcements", "/api/v1/announcements/det-max", "/api/v1/announcements/no-such-pet",
                "/healthz", "/readyz", "/metrics",
            ]
            for path in paths {
                let response = try await app.get(path)
                #expect(response.header("Set-Cookie") == nil, "Set-Cookie on \(path)")
                #expect(response.status != 500, "500 on \(path)")
            }
            let post = try await app.get("/pets", method: "POST")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
            #expect(post.header("Set-Cookie") == nil)
            app.stub.setFault(.status(500))
            let failing = try await app.get("/pets/never-fetched")
            #expect(failing.status == 502)
            #expect(failing.header("Set-Cookie") == nil)
        }
    }

    @Test(arguments: [
        ("/lost-pets", "/pets"),
        ("/lost-pets/abc", "/pets/abc"),
        ("/lost-pets?status=missing&lat=52.2297&lng=21.0122", "/pets?status=missing&lat=52.2297&lng=21.0122"),
        ("/lost-pets/abc?utm_source=sms", "/pets/abc?utm_source=sms"),
        ("/lost-pets/a%20b", "/pets/a%20b"),
    ])
    func legacy_links_redirect_permanently_keeping_the_query(path: String, location: String) async throws {
        try await withApp { app in
            let response = try await app.get(path)

            #expect(response.status == 301)
            #expect(response.header("Location") == location)
            #expect(app.stub.requestCount() == 0)
        }
    }

    @Test func an_unknown_path_is_a_404_page_with_navigation() async throws {
        try await withApp { app in
            let response = try await app.get("/no/such/page")

            #expect(response.status == 404)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(PageHTML.testIDCount("error-message", in: response.text) == 1)
            #expect(PageHTML.hrefs(response.text).contains("/pets"))
            #expect(PageHTML.hrefs(response.text).contains("/"))
        }
    }

    @Test func upstream_down_with_a_recent_copy_serves_it_with_a_stale_notice_and_no_cache() async throws {
        try await Self.withPets(configure: { $0.cacheTTLSeconds = 0.2 }) { app in
            let fresh = try await app.get("/pets")
            app.clock.advance(by: .milliseconds(600))
            app.stub.setFault(.status(500))
            let stale = try await app.get("/pets")

            #expect(fresh.status == 200)
            #expect(PageHTML.testIDCount("stale-notice", in: fresh.text) == 0)
            #expect(stale.status == 200)
            #expect(PageHTML.testIDCount("stale-notice", in: stale.text) == 1)
            #expect(PageHTML.petIDs(stale.text) == PageHTML.petIDs(fresh.text))
            #expect(stale.header("Cache-Control") == "no-cache")
        }
    }
}

/// What every HTML page has: `lang`, a `<title>`, one `<h1>`, and the test hooks where they belong.
@Suite("Page structure")
struct PageStructureTests {
    @Test(arguments: [
        "/", "/pets", "/pets/det-max", "/pets?location=denied", "/?lat=52.2297&lng=21.0122", "/pets?species=other",
        "/pets?page=0", "/pets?page=99", "/pets/no-such-pet", "/nowhere", "/pets?lat=95&lng=1",
    ])
    func every_page_has_lang_a_title_and_exactly_one_h1(path: String) async throws {
        try await PageCachingTests.withPets { app in
            let html = try await app.get(path).text

            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains(#"<html lang="en">"#))
            let title = try #require(PageHTML.title(html))
            #expect(title.contains("PetSpot"))
            #expect(PageHTML.count("<h1", in: html) == 1)
            #expect(PageHTML.count("<title>", in: html) == 1)
            #expect(html.range(of: #"<body data-location="(known|denied|unknown)">"#, options: .regularExpression) != nil)
        }
    }

    @Test func hooks_sit_on_the_right_pages() async throws {
        try await PageCachingTests.withPets { app in
            let landing = try await app.get("/").text
            let list = try await app.get("/pets").text
            let details = try await app.get("/pets/det-max").text
            let error = try await app.get("/pets/no-such-pet").text

            #expect(PageHTML.testIDCount("recent-pets", in: landing) == 1)
            #expect(PageHTML.testIDCount("pet-list", in: landing) == 1)
            #expect(PageHTML.testIDCount("recent-pets", in: list) == 0)
            #expect(PageHTML.testIDCount("pet-list", in: list) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: list) == PageHTML.petIDs(list).count)
            #expect(PageHTML.testIDCount("pet-details", in: details) == 1)
            #expect(PageHTML.testIDCount("pet-card", in: details) == 0)
            #expect(PageHTML.testIDCount("share-button", in: details) == 1)
            #expect(PageHTML.testIDCount("error-message", in: error) == 1)
            for page in [landing, list, details] {
                #expect(PageHTML.testIDCount("error-message", in: page) == 0)
            }
            for page in [landing, list] {
                // Each card has one status badge.
                #expect(PageHTML.testIDCount("status-badge", in: page) == PageHTML.petIDs(page).count)
            }
        }
    }
}
