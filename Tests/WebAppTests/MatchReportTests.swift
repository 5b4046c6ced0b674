import Foundation
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// The report result page's "Is it one of these?" (docs/matching.md), on the embedded demo upstream.
    @Suite("Possible matches after a report")
    struct MatchReportTests {
        @Test(arguments: ["en", "pl"])
        func a_found_report_shows_the_lost_pet_nearby_on_its_result_page(language: String) async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                // A lost dog, through the API, 1.1 km north of where the form puts the found one (the
                // backend refuses a second report with the same microchip, so neither gives one).
                let lost =
                    #"{"petName":"Azor","species":"DOG","breed":"Beagle","sex":"MALE","age":4,"description":"czarny z białą łapą","#
                    + #""microchipNumber":null,"locationLatitude":52.2397,"locationLongitude":21.0122,"email":"owner@example.com","#
                    + #""phone":null,"lastSeenDate":"2025-11-18","status":"MISSING","reward":null}"#
                let created = try await post(try app.url("/api/v1/announcements"), body: Data(lost.utf8), contentType: "application/json")
                #expect(created.status == 201)
                let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
                let lostID = try #require(object["id"] as? String)
                let password = try #require(object["managementPassword"] as? String)
                // Listed once it has its photo, as the backend does.
                var photo = Multipart()
                photo.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: try photoFixture("oriented-gps.jpg"))
                let uploaded = try await post(
                    try app.url("/api/v1/announcements/\(lostID)/photos"),
                    body: photo.body,
                    contentType: photo.contentType,
                    headers: ["Authorization": "Basic " + Data("\(lostID):\(password)".utf8).base64EncodedString()]
                )
                #expect(uploaded.status == 201)
                #expect(try await app.get("/api/v1/announcements").text.contains(lostID))

                var form = ReportForm()
                form.values["status"] = "FOUND"
                form.values["sex"] = "UNKNOWN"
                form.photo = try photoFixture("oriented-gps.jpg")
                let made = try await app.submit(form, path: "/report?lang=\(language)")

                #expect(made.status == 201)
                let html = made.text
                #expect(html.contains(language == "en" ? "Is it one of these?" : "Czy to któryś z nich?"))
                #expect(html.contains(#"data-testid="possible-matches""#))
                let ids = MatchPagesTests.matchIDs(html)
                #expect(ids.first == lostID)
                let reasons = MatchPagesTests.reasons(html)
                #expect(reasons.first == (language == "en" ? "1.1 km apart" : "1,1 km od siebie"))
                #expect(reasons.contains(language == "en" ? "found 2 days after it was lost" : "znaleziono 2 dni po zaginięciu"))
                let newID = try #require(resultPetID(html))
                #expect(html.contains(#"href="/pets/\#(newID)/matches.atom?lang=\#(language)""#))
                // The lost dog's own page shows the found one.
                let lostPage = try await app.get("/pets/\(lostID)?lang=\(language)").text
                #expect(MatchPagesTests.matchIDs(lostPage).first == newID)
            }
        }

        /// A reload of the report form on the other replica shows the same matches: that replica's
        /// snapshot does not list the new report (the stub's list never does here), so the form sent
        /// again is what its result page matches.
        @Test func a_reload_on_the_other_replica_shows_the_same_possible_matches() async throws {
            try await withReplicas { replicas in
                let found = PageJSON.item("found-1", name: nil, overrides: ["status": "FOUND", "lastSeenDate": "2025-11-21"])
                replicas.stub.setList(PageJSON.list([found]))
                replicas.stub.setWrite(path: ReplicaTests.created, status: 201, body: createdBody(id: "m-1"))
                replicas.stub.setWrite(path: ReplicaTests.photos("m-1"), status: 201, body: "{}")
                let form = ReplicaTests.form(try photoFixture("oriented-gps.jpg"))
                let first = try await replicas.a.submit(form, headers: replicas.visitor)
                #expect(first.status == 201)
                #expect(MatchPagesTests.matchIDs(first.text) == ["found-1"])
                let again = try await replicas.b.submit(form, headers: replicas.visitor)
                #expect(again.status == 200)
                #expect(resultPetID(again.text) == "m-1")
                #expect(again.text.contains(#"data-testid="possible-matches""#))
                #expect(MatchPagesTests.matchIDs(again.text) == ["found-1"])
                #expect(MatchPagesTests.reasons(again.text) == MatchPagesTests.reasons(first.text))
                #expect(!(try await replicas.b.get("/api/v1/announcements").text.contains("\"m-1\"")), "B's snapshot lists it")
            }
        }
    }
}
