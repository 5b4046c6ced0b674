import Foundation
import TestSupport
import Testing

/// Possible matches over HTTP (docs/matching.md): the details page's section, the all-matches
/// page, the API's shape and the feed, in English and Polish, with hostile text in every field
/// the reasons quote.
@Suite("Possible matches")
struct MatchPagesTests {
    /// A lost black cat in Warsaw and the reports around it:
    /// `found-near` (1 km, 3 days later, Polish description, same breed), `found-chip` (same chip,
    /// 12 km, 30 days later), `found-far` (40 km: none), `found-dog` (a dog: none),
    /// `found-early` (5 days before the loss: none), `found-other-chip` (another chip: none),
    /// `lost-other` (also missing, and lost months before the others were found: none),
    /// `found-nowhere` (no coordinates: none).
    static func rows(breed: String = "Maine Coon") -> [[String: Any]] {
        func row(_ id: String, _ status: String, _ species: String = "CAT", km: Double?, day: String, extra: [String: Any] = [:]) -> [String: Any] {
            var overrides: [String: Any] = [
                "species": species, "status": status, "lastSeenDate": day, "createdAt": "\(day)T12:00:00.000Z",
                "updatedAt": "\(day)T12:00:00.000Z", "phone": "+48 600 700 800", "email": "finder-\(id)@example.com",
            ]
            if let km {
                overrides["locationLatitude"] = 52.2297 + km / 111.2
                overrides["locationLongitude"] = 21.0122
            } else {
                overrides["locationLatitude"] = NSNull()
                overrides["locationLongitude"] = NSNull()
            }
            for (key, value) in extra { overrides[key] = value }
            return PageJSON.item(id, name: id == "lost" ? "Mruczek" : nil, overrides: overrides)
        }
        return [
            row(
                "lost",
                "MISSING",
                km: 0,
                day: "2025-11-10",
                extra: ["description": "czarna kotka z białą łapką", "breed": breed, "microchipNumber": "985112000111", "age": 3]
            ),
            row("found-near", "FOUND", km: 1, day: "2025-11-13", extra: ["description": "black cat, one white paw", "breed": breed, "age": 4]),
            row("found-chip", "FOUND", km: 12, day: "2025-12-10", extra: ["microchipNumber": "985 112 000 111"]),
            row("found-far", "FOUND", km: 40, day: "2025-11-12"),
            row("found-dog", "FOUND", "DOG", km: 1, day: "2025-11-12"),
            row("found-early", "FOUND", km: 1, day: "2025-11-05"),
            row("found-other-chip", "FOUND", km: 1, day: "2025-11-12", extra: ["microchipNumber": "111222333"]),
            row("lost-other", "MISSING", km: 1, day: "2025-06-01"),
            row("found-nowhere", "FOUND", km: nil, day: "2025-11-12", extra: ["location": "Warszawa", "locationRadius": 5]),
        ]
    }

    static func matchIDs(_ html: String) -> [String] {
        PageHTML.captures(#"data-testid="match" data-pet-id="([^"]*)""#, in: html)
    }

    static func reasons(_ html: String) -> [String] {
        PageHTML.captures(#"<li data-testid="match-reason">([^<]*)</li>"#, in: html)
    }

    @Test func the_details_page_shows_the_matches_with_their_reasons_in_english() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let html = try await app.get("/pets/lost").text
            #expect(html.contains(#"data-testid="possible-matches""#))
            #expect(Self.matchIDs(html) == ["found-chip", "found-near"])
            let reasons = Self.reasons(html)
            #expect(reasons.prefix(3) == ["same microchip", "12.0 km apart", "found 30 days after it was lost"])
            #expect(
                reasons.dropFirst(3) == [
                    "1.0 km apart", "found 3 days after it was lost", "both: black, white", "same breed (Maine Coon)", "ages agree",
                ]
            )
            #expect(html.contains(#"href="/pets/lost/matches""#))
            #expect(html.contains(#"href="/pets/lost/matches.atom?lang=en""#))
            // Each reason is inside its own card.
            let firstCard = try #require(html.range(of: #"data-pet-id="found-chip""#))
            let secondCard = try #require(html.range(of: #"data-pet-id="found-near""#))
            let chipReason = try #require(html.range(of: "same microchip"))
            #expect(firstCard.upperBound < chipReason.lowerBound && chipReason.upperBound < secondCard.lowerBound)
        }
    }

    @Test func the_details_page_says_it_in_polish() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let html = try await app.get("/pets/lost?lang=pl").text
            #expect(html.contains("Czy to może być ten sam zwierzak?"))
            #expect(
                Self.reasons(html) == [
                    "ten sam mikrochip", "12,0 km od siebie", "znaleziono 30 dni po zaginięciu", "1,0 km od siebie",
                    "znaleziono 3 dni po zaginięciu", "w obu opisach: czarny, biały", "ta sama rasa (Maine Coon)", "zgodny wiek",
                ]
            )
            #expect(html.contains(#"href="/pets/lost/matches?lang=pl""#))
        }
    }

    @Test func a_found_pet_sees_the_lost_one_and_reports_without_matches_have_no_section() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            #expect(Self.matchIDs(try await app.get("/pets/found-near").text) == ["lost"])
            for id in ["found-far", "found-dog", "found-early", "found-other-chip", "found-nowhere"] {
                let html = try await app.get("/pets/\(id)").text
                #expect(html.contains(#"data-testid="pet-details""#))
                #expect(!html.contains(#"data-testid="possible-matches""#), "\(id)")
            }
            // No coordinates: no feed link either; a lost or found pet with a place has one before any match.
            #expect(!(try await app.get("/pets/found-nowhere").text).contains("matches.atom"))
            #expect((try await app.get("/pets/found-far").text).contains(#"href="/pets/found-far/matches.atom?lang=en""#))
        }
    }

    @Test func the_api_gives_codes_and_values_in_the_pages_order() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let response = try await app.get("/api/v1/announcements/lost/matches")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let data = try #require(object["data"] as? [[String: Any]])
            #expect(data.map { $0["id"] as? String } == ["found-chip", "found-near"])
            let near = data[1]
            #expect(near["distanceKm"] as? Double == 1.0)
            #expect((near["score"] as? Double).map { $0 > 0 && $0 <= 100 } == true)
            #expect((data[0]["score"] as? Double).map { $0 > 100 } == true)
            #expect(near["email"] as? String == "finder-found-near@example.com")  // the announcement JSON, as the details endpoint gives it
            let reasons = try #require(near["reasons"] as? [[String: Any]])
            #expect(reasons.map { $0["code"] as? String } == ["DISTANCE_KM", "DAYS_APART", "SHARED_MARKINGS", "SAME_BREED", "AGES_AGREE"])
            #expect(reasons[0]["value"] as? Double == 1.0)
            #expect(reasons[1]["value"] as? Int == 3)
            #expect(reasons[2]["value"] as? [String] == ["black", "white"])
            #expect(reasons[3]["value"] as? String == "Maine Coon")
            #expect(reasons[4]["value"] is NSNull)
            let chip = try #require((data[0]["reasons"] as? [[String: Any]])?.first)
            #expect(chip["code"] as? String == "SAME_MICROCHIP")
            #expect(chip["value"] is NSNull)
        }
    }

    @Test func the_api_answers_an_empty_list_and_a_404_like_the_details() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let none = try await app.get("/api/v1/announcements/found-far/matches")
            #expect(none.status == 200)
            #expect(none.text == #"{"data":[]}"#)
            let unknown = try await app.get("/api/v1/announcements/no-such-pet/matches")
            let details = try await app.get("/api/v1/announcements/no-such-pet")
            #expect(unknown.status == 404)
            #expect(details.status == 404)
            let error = try #require(try JSONSerialization.jsonObject(with: unknown.body) as? [String: Any])
            #expect((error["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            #expect(try await app.get("/pets/no-such-pet/matches.atom").status == 404)
            #expect(try await app.get("/pets/no-such-pet/matches").status == 404)
        }
    }

    @Test func the_all_matches_page_lists_every_match_without_linking_itself() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let html = try await app.get("/pets/lost/matches?lang=pl").text
            #expect(Self.matchIDs(html) == ["found-chip", "found-near"])
            #expect(html.contains("Możliwe dopasowania: Mruczek"))
            #expect(!html.contains(#"data-testid="all-matches""#))
            let empty = try await app.get("/pets/found-far/matches").text
            #expect(empty.contains(#"data-testid="no-matches""#))
        }
    }

    @Test func the_feed_has_one_entry_per_match_without_contacts_and_answers_304() async throws {
        try await withApp(listJSON: PageJSON.list(Self.rows())) { app in
            let response = try await app.get("/pets/lost/matches.atom?lang=en")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/atom+xml; charset=utf-8")
            let feed = try #require(AtomDocument.parse(response.body))
            #expect(feed.id == "tag:petspot.example,2026-11-01:pets/lost/matches.atom")
            #expect(feed.entries.map(\.id) == ["found-chip", "found-near"].map { "tag:petspot.example,2026-11-01:pets/lost/matches.atom/\($0)" })
            #expect(feed.updated == "2025-12-10T12:00:00Z")  // the newest matching report
            #expect(feed.link("self") == "https://petspot.example/pets/lost/matches.atom?lang=en")
            #expect(feed.entries[1].link("alternate") == "https://petspot.example/pets/found-near?lang=en")
            #expect(feed.entries[1].summary.hasPrefix("1.0 km apart · found 3 days after it was lost · both: black, white"))
            #expect(!response.text.contains("600 700 800"))
            #expect(!response.text.contains("@example.com"))
            let lastModified = try #require(response.header("Last-Modified"))
            let etag = try #require(response.header("ETag"))
            #expect(try await app.get("/pets/lost/matches.atom?lang=en", headers: ["If-None-Match": etag]).status == 304)
            #expect(try await app.get("/pets/lost/matches.atom?lang=en", headers: ["If-Modified-Since": lastModified]).status == 304)
            let polish = try #require(AtomDocument.parse(try await app.get("/pets/lost/matches.atom?lang=pl").body))
            #expect(polish.language == "pl")
            #expect(polish.entries.map(\.id) == feed.entries.map(\.id))
            #expect(polish.entries[1].summary.hasPrefix("1,0 km od siebie · znaleziono 3 dni po zaginięciu"))
        }
    }

    /// Every field a reason or a card quotes, hostile: escaped in HTML, XML and JSON.
    @Test func hostile_text_in_quoted_fields_is_escaped_everywhere() async throws {
        let hostile = #"<script>alert("x")</script>&amp;'"#
        var rows = Self.rows(breed: hostile)
        rows[1]["petName"] = hostile
        rows[1]["description"] = hostile + " black white"
        try await withApp(listJSON: PageJSON.list(rows)) { app in
            for path in ["/pets/lost", "/pets/lost/matches", "/pets/lost?lang=pl"] {
                let html = try await app.get(path).text
                #expect(!html.contains("<script>alert"), "\(path)")
                #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;"), "\(path)")
            }
            let feed = try await app.get("/pets/lost/matches.atom")
            #expect(AtomDocument.parse(feed.body) != nil)
            #expect(!feed.text.contains("<script>"))
            let parsed = try #require(AtomDocument.parse(feed.body))
            #expect(parsed.entries.contains { $0.summary.contains(hostile) })
            let api = try await app.get("/api/v1/announcements/lost/matches")
            let data = try #require((try JSONSerialization.jsonObject(with: api.body) as? [String: Any])?["data"] as? [[String: Any]])
            let breedReason = data.compactMap { ($0["reasons"] as? [[String: Any]])?.first { $0["code"] as? String == "SAME_BREED" } }.first
            #expect(breedReason?["value"] as? String == hostile)
        }
    }
}
