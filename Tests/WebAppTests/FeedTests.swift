import Foundation
import TestSupport
import Testing

/// `GET /pets.atom` (docs/feeds.md): the list's search as an Atom feed, read back over HTTP with an
/// XML parser and compared with the list page of the same search.
@Suite("Atom feed")
struct FeedTests {
    /// Announcements in Warsaw and Kraków; `createdAt` gives the newest-first order
    /// w-cat-2, w-dog-1, w-cat-1, w-dog-2, k-dog-1, k-cat-1, w-bird-1. No rabbits.
    static func rows() -> [[String: Any]] {
        let spec: [(String, String, String, Double, Double, String)] = [
            ("w-dog-1", "DOG", "MISSING", 52.2297, 21.0122, "2025-11-20"),
            ("w-cat-1", "CAT", "FOUND", 52.2400, 21.0300, "2025-11-19"),
            ("w-dog-2", "DOG", "FOUND", 52.2500, 20.9800, "2025-11-18"),
            ("k-dog-1", "DOG", "MISSING", 50.0611, 19.9372, "2025-11-17"),
            ("k-cat-1", "CAT", "MISSING", 50.0700, 19.9400, "2025-11-16"),
            ("w-bird-1", "BIRD", "CLOSED", 52.2000, 21.0000, "2025-11-15"),
            ("w-cat-2", "CAT", "MISSING", 52.2297, 21.0122, "2025-11-21"),
        ]
        return spec.map { id, species, status, latitude, longitude, day in
            PageJSON.item(
                id,
                name: id == "w-dog-1" ? "Burek" : "Pet \(id)",
                overrides: [
                    "species": species, "status": status, "locationLatitude": latitude, "locationLongitude": longitude,
                    "createdAt": "\(day)T10:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z", "breed": "Breed of \(id)", "sex": "MALE",
                    "phone": "+48 600 700 800", "email": "owner-\(id)@example.com", "contactName": "Jan Kowalski",
                    "description": "Call +48 600 700 800",
                ]
            )
        }
    }

    /// The feed at `pathAndQuery`, parsed; fails the test when it is not a well-formed 200 Atom feed.
    static func feed(
        _ app: TestApp,
        _ pathAndQuery: String,
        headers: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (AtomDocument, Fetched) {
        let response = try await app.get(pathAndQuery, headers: headers)
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/atom+xml; charset=utf-8", sourceLocation: sourceLocation)
        return (try #require(AtomDocument.parse(response.body), sourceLocation: sourceLocation), response)
    }

    @Test(arguments: [
        "", "status=missing", "species=cat", "status=found&species=dog", "lat=52.2297&lng=21.0122",
        "lat=52.2297&lng=21.0122&range=2&species=cat", "lat=50.0611&lng=19.9372&range=5", "species=rabbit",
        "lat=10&lng=10&range=1",
    ])
    func feed_entries_equal_the_list_items(query: String) async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let listIDs = PageHTML.petIDs(try await app.get("/pets?" + query).text)
            let (feed, _) = try await Self.feed(app, "/pets.atom?" + query)

            #expect(feed.entries.map(\.petID) == listIDs)
            #expect(feed.entries.count == Set(feed.entries.map(\.id)).count)
        }
    }

    @Test func feed_summaries_give_the_distance_only_when_the_search_is_located() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let (located, _) = try await Self.feed(app, "/pets.atom?lat=52.2297&lng=21.0122&species=dog&range=5")
            let (plain, _) = try await Self.feed(app, "/pets.atom?species=dog")

            let burek = try #require(located.entries.first { $0.petID == "w-dog-1" })
            #expect(burek.summary == "Species: Dog · Breed: Breed of w-dog-1 · Sex: ♂ Male · Last seen: Nov 09, 2025 · 0.0 km away")
            #expect(plain.entries.allSatisfy { !$0.summary.contains("km away") })
            #expect(plain.entries.first { $0.petID == "w-dog-1" }?.summary.hasPrefix("Species: Dog · Breed: Breed of w-dog-1") == true)
        }
    }

    @Test func feed_is_newest_first_and_holds_at_most_fifty_entries() async throws {
        // 60 announcements, created one hour apart, listed upstream in a shuffled order.
        let rows = (0..<60).map { hour in
            let created = String(format: "2025-11-%02dT%02d:00:00.000Z", 10 + hour / 24, hour % 24)
            return PageJSON.item("pet-\(hour)", overrides: ["createdAt": created, "updatedAt": created])
        }
        var generator = SystemRandomNumberGenerator()
        try await withApp(listJSON: PageJSON.list(rows.shuffled(using: &generator))) { app in
            let (feed, response) = try await Self.feed(app, "/pets.atom")

            #expect(feed.entries.count == 50)
            #expect(feed.entries.map(\.petID) == (10..<60).reversed().map { "pet-\($0)" })
            #expect(feed.entries.map(\.published) == feed.entries.map(\.published).sorted(by: >))
            #expect(feed.updated == feed.entries.first?.updated)
            #expect(response.header("Last-Modified") == "Wed, 12 Nov 2025 11:00:00 GMT")
        }
    }

    @Test func entries_take_their_dates_from_created_at_and_link_details_and_photo() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let (feed, _) = try await Self.feed(app, "/pets.atom?species=dog&status=missing")
            let burek = try #require(feed.entries.first)

            #expect(burek.petID == "w-dog-1")
            #expect(burek.id == "tag:petspot.example,2026-11-01:pets/w-dog-1")
            #expect(burek.title == "Missing dog: Burek")
            #expect(burek.published == "2025-11-20T10:00:00Z")
            #expect(burek.updated == "2025-11-20T10:00:00Z")
            #expect(burek.link("alternate") == "https://petspot.example/pets/w-dog-1?lang=en")
            #expect(burek.link("enclosure") == "https://petspot.example/images/w-dog-1.jpg?w=640")
            #expect(burek.point == "52.2297 21.0122")
        }
    }

    @Test func equivalent_urls_give_one_feed_id_and_self_link() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let spellings = [
                "/pets.atom?species=dog&lat=52.2297&lng=21.0122",
                "/pets.atom?lng=21.01219&lat=52.22971&species=DOG&utm_source=x&range=15&lang=en&sort=newest&page=1",
                "/pets.atom?lat=52.2304&lng=21.0118&species=dog&range=%2B15",
            ]
            var feeds: [AtomDocument] = []
            var tags: Set<String> = []
            for spelling in spellings {
                let (feed, response) = try await Self.feed(app, spelling)
                feeds.append(feed)
                tags.insert(try #require(response.header("ETag")))
            }
            let expectedQuery = "species=dog&lat=52.23&lng=21.012&range=15&lang=en"

            #expect(Set(feeds.map(\.id)) == ["tag:petspot.example,2026-11-01:pets.atom?\(expectedQuery)"])
            #expect(Set(feeds.compactMap { $0.link("self") }) == ["https://petspot.example/pets.atom?\(expectedQuery)"])
            #expect(Set(feeds.compactMap { $0.link("alternate", type: "text/html") }) == ["https://petspot.example/pets?\(expectedQuery)"])
            #expect(Set(tags.map(withoutQuickMark)).count == 1)
            let (other, _) = try await Self.feed(app, "/pets.atom?species=dog&lat=52.2397&lng=21.0122")
            #expect(other.id != feeds[0].id)
            let (wider, _) = try await Self.feed(app, "/pets.atom?species=dog&lat=52.2297&lng=21.0122&range=16")
            #expect(wider.id != feeds[0].id)
        }
    }

    @Test func conditional_get_answers_304_for_if_none_match_and_if_modified_since() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let path = "/pets.atom?status=missing"
            let (_, first) = try await Self.feed(app, path)
            let etag = try #require(first.header("ETag"))
            let lastModified = try #require(first.header("Last-Modified"))

            #expect(lastModified == "Fri, 21 Nov 2025 10:00:00 GMT")
            #expect(first.header("Cache-Control") == (try await app.get("/pets?status=missing")).header("Cache-Control"))
            // Three rounds: the application answers first, then the server's kept answer does.
            for _ in 0..<3 {
                let byTag = try await app.get(path, headers: ["If-None-Match": etag])
                #expect(byTag.status == 304)
                #expect(byTag.body.isEmpty)
                let byDate = try await app.get(path, headers: ["If-Modified-Since": lastModified])
                #expect(byDate.status == 304)
                #expect(byDate.body.isEmpty)
                #expect(withoutQuickMark(byDate.header("ETag")) == withoutQuickMark(etag))
                let later = try await app.get(path, headers: ["If-Modified-Since": "Sat, 22 Nov 2025 00:00:00 GMT"])
                #expect(later.status == 304)
                let earlier = try await app.get(path, headers: ["If-Modified-Since": "Fri, 21 Nov 2025 09:59:59 GMT"])
                #expect(earlier.status == 200)
                #expect(earlier.body == first.body)
                // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
                let otherTag = try await app.get(path, headers: ["If-None-Match": "\"other\"", "If-Modified-Since": lastModified])
                #expect(otherTag.status == 200)
                let unreadable = try await app.get(path, headers: ["If-Modified-Since": "yesterday"])
                #expect(unreadable.status == 200)
            }
        }
    }

    @Test func an_empty_feed_is_valid_and_stable() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let (feed, response) = try await Self.feed(app, "/pets.atom?species=rabbit")

            #expect(feed.entries.isEmpty)
            #expect(feed.updated == "2026-11-01T00:00:00Z")
            #expect(response.header("Last-Modified") == "Sun, 01 Nov 2026 00:00:00 GMT")
        }
    }

    @Test(arguments: [
        "lat=91&lng=1", "lat=52", "species=unicorn", "status=lost-and-gone", "range=0&lat=1&lng=1", "lang=de",
        "sort=nearest", "page=0", "species=dog&species=cat",
    ])
    func bad_parameters_answer_the_lists_400_page(query: String) async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let feed = try await app.get("/pets.atom?" + query)
            let list = try await app.get("/pets?" + query)

            #expect(feed.status == 400)
            #expect(list.status == 400)
            #expect(feed.header("Content-Type") == "text/html; charset=utf-8")
            let message = { (html: String) in PageHTML.captures(#"<p class="error-text">([^<]*)</p>"#, in: html) }
            #expect(!message(feed.text).isEmpty)
            #expect(message(feed.text) == message(list.text))
        }
    }

    @Test func hostile_upstream_text_stays_text_in_the_feed() async throws {
        var rows = EscapingTests.hostileRows()
        rows.append(
            PageJSON.item(
                "xss-control",
                name: "Bell\u{7}and\u{1}nul",
                overrides: ["breed": "]]><evil/>", "createdAt": "2025-11-09T10:00:00.000Z"]
            )
        )
        try await withApp(listJSON: PageJSON.list(rows)) { app in
            let (feed, response) = try await Self.feed(app, "/pets.atom")
            let xml = response.text

            #expect(feed.entries.map(\.petID) == ["xss-script", "xss-attr", "xss-quote", "xss-control"])
            #expect(feed.entries[0].title == "Missing dog: " + EscapingTests.script)
            #expect(feed.entries[1].title == "Missing dog: " + EscapingTests.attributeBreaker)
            #expect(feed.entries[2].title == "Missing dog: " + EscapingTests.singleQuoteBreaker)
            #expect(feed.entries[3].summary.contains("]]><evil/>"))
            #expect(!xml.contains("<script>"))
            #expect(!xml.contains("<img"))
            #expect(!xml.contains("<evil"))
            #expect(!xml.contains("\u{1}"))
        }
    }

    @Test func the_feed_holds_no_contact_data() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            for query in ["", "lang=pl", "lat=52.2297&lng=21.0122"] {
                let (_, response) = try await Self.feed(app, "/pets.atom?" + query)
                let xml = response.text

                #expect(!xml.contains("600 700 800"))
                #expect(!xml.contains("@example.com"))
                #expect(!xml.contains("Kowalski"))
                #expect(!xml.contains("mailto:"))
                #expect(!xml.contains("tel:"))
            }
        }
    }

    @Test func the_feed_speaks_the_language_of_its_url_or_header() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let (polish, polishResponse) = try await Self.feed(app, "/pets.atom?species=dog&status=missing&lang=pl")
            let (byHeader, headerResponse) = try await Self.feed(
                app,
                "/pets.atom?species=dog&status=missing",
                headers: ["Accept-Language": "pl-PL,pl;q=0.9"]
            )
            let (english, englishResponse) = try await Self.feed(app, "/pets.atom?species=dog&status=missing")

            #expect(polish.language == "pl")
            #expect(polish.entries.first?.title == "Zaginiony pies: Burek")
            #expect(polish.entries.first?.link("alternate") == "https://petspot.example/pets/w-dog-1?lang=pl")
            #expect(polish.entries.first?.summary.hasPrefix("Gatunek: Pies") == true)
            #expect(polish.title.hasPrefix("Zaginione psy"))
            #expect(polishResponse.header("Content-Language") == "pl")
            // `Vary` names the language only when the header chose it (Accept-Encoding is there for compression).
            #expect(!(polishResponse.header("Vary") ?? "").contains("Accept-Language"))
            #expect(byHeader.id == polish.id)
            #expect(headerResponse.body == polishResponse.body)
            #expect((headerResponse.header("Vary") ?? "").contains("Accept-Language"))
            #expect(english.language == "en")
            #expect(english.entries.first?.title == "Missing dog: Burek")
            #expect(english.title == "Missing dogs · PetSpot")
            #expect(englishResponse.header("Content-Language") == "en")
            #expect(english.id != polish.id)
        }
    }

    @Test(arguments: [
        ("/", "/pets.atom?lang=en"), ("/pets?species=cat&status=missing", "/pets.atom?status=missing&species=cat&lang=en"),
        ("/map?species=cat&lang=pl", "/pets.atom?species=cat&lang=pl"),
        ("/?lat=50.0611&lng=19.9372", "/pets.atom?lat=50.0611&lng=19.9372&range=10&lang=en"),
        ("/pets?lat=52.2297&lng=21.0122&sort=nearest&page=1", "/pets.atom?lat=52.2297&lng=21.0122&range=15&lang=en"),
    ])
    func pages_link_the_feed_of_their_search(page: String, feedLink: String) async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            // A located page is made from a shell shared by all locations: ask for another place first.
            _ = try await app.get(page.replacingOccurrences(of: "50.0611", with: "49.1").replacingOccurrences(of: "52.2297", with: "51.1"))
            let html = try await app.get(page).text
            let links = PageHTML.captures(#"<link rel="alternate" type="application/atom\+xml" title="[^"]+" href="([^"]*)">"#, in: html)

            #expect(links.map(PageHTML.unescape) == [feedLink])
            if page.hasPrefix("/pets") {
                #expect(
                    PageHTML.captures(#"href="([^"]*)" type="application/atom\+xml" data-testid="feed-link""#, in: html)
                        .map(PageHTML.unescape) == [feedLink]
                )
            }
            let (feed, _) = try await Self.feed(app, feedLink)
            #expect(feed.link("self")?.hasPrefix("https://petspot.example/pets.atom?") == true)
        }
    }

    @Test func the_list_explains_following_a_search_in_both_languages() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let english = try await app.get("/pets").text
            let polish = try await app.get("/pets?lang=pl").text

            #expect(english.contains(">Follow this search</a>"))
            #expect(english.contains("feed reader"))
            #expect(polish.contains(">Obserwuj to wyszukiwanie</a>"))
            #expect(polish.contains("czytnika kanałów"))
        }
    }
}
