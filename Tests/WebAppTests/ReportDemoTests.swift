import Foundation
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// The whole report flow against the embedded demo upstream, which behaves as the backend's
    /// write API does (docs/demo-upstream-writes.md).
    @Suite("Report flow on the demo upstream")
    struct ReportDemoTests {
        /// The app in front of the embedded demo upstream (no upstream URL configured).
        private func withDemo(_ body: (TestApp) async throws -> Void) async throws {
            try await withApp(configure: { $0.upstreamURL = nil }, body)
        }

        @Test func a_report_is_on_the_list_the_map_and_the_api_at_once() async throws {
            try await withDemo { app in
                // Warm: the snapshot and the kept answers of these URLs exist before the report.
                for path in ["/pets?sort=newest", "/pets?sort=newest", "/api/v1/announcements", "/map"] {
                    #expect(try await app.get(path).status == 200)
                }
                var form = ReportForm()
                form.values["petName"] = "Reksio-\(UInt16.random(in: 0...UInt16.max))"
                form.photo = try photoFixture("oriented-gps.jpg")

                let made = try await app.submit(form)

                #expect(made.status == 201)
                let id = try #require(resultPetID(made.text))
                let code = try #require(managementCode(made.text))
                #expect(code.count == 6 && code.allSatisfy(\.isNumber))
                #expect(made.text.contains(#"data-testid="result-pet-link""#))
                #expect(!made.text.contains(#"data-testid="photo-retry""#))
                let list = try await app.get("/pets?sort=newest")
                #expect(list.text.contains(#"data-pet-id="\#(id)""#), "the new report is on the first page of the newest")
                #expect(try await app.get("/api/v1/announcements").text.contains(id))
                #expect(try await app.get("/map").text.contains(id))
                let details = try await app.get("/pets/\(id)")
                #expect(details.status == 200)
                #expect(details.text.contains(form.values["petName"]!))
                // The photo upstream is our safe JPEG: its variant is served.
                #expect(details.text.contains("/images/\(id)"))
            }
        }

        @Test func the_api_takes_the_apps_writes_with_our_validation() async throws {
            try await withDemo { app in
                let json =
                    #"{"petName":"Mruczek","species":"CAT","breed":null,"sex":"FEMALE","age":2,"description":null,"#
                    + #""microchipNumber":null,"locationLatitude":50.0614,"locationLongitude":19.9366,"email":"owner@example.com","#
                    + #""phone":null,"lastSeenDate":"2025-11-20","status":"MISSING","reward":null}"#
                let created = try await post(try app.url("/api/v1/announcements"), body: Data(json.utf8), contentType: "application/json")
                #expect(created.status == 201)
                #expect(created.header("Cache-Control") == "no-store")
                let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
                let id = try #require(object["id"] as? String)
                let password = try #require(object["managementPassword"] as? String)
                #expect(password.count == 6)

                let ageZero = Data(json.replacingOccurrences(of: #""age":2"#, with: #""age":0"#).utf8)
                let refused = try await post(try app.url("/api/v1/announcements"), body: ageZero, contentType: "application/json")
                #expect(refused.status == 400)
                #expect(refused.text.contains(#""code":"INVALID_FORMAT""#) && refused.text.contains(#""field":"age""#))

                var form = Multipart()
                form.file("photo", fileName: "cat.jpg", contentType: "image/jpeg", bytes: try photoFixture("oriented-gps.jpg"))
                let photos = try app.url("/api/v1/announcements/\(id)/photos")
                let noAuth = try await post(photos, body: form.body, contentType: form.contentType)
                #expect(noAuth.status == 401)
                let wrong = try await post(
                    photos,
                    body: form.body,
                    contentType: form.contentType,
                    headers: ["Authorization": "Basic " + Data("\(id):000000".utf8).base64EncodedString()]
                )
                #expect(wrong.status == 403)
                let right = try await post(
                    photos,
                    body: form.body,
                    contentType: form.contentType,
                    headers: ["Authorization": "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()]
                )
                #expect(right.status == 201)
                #expect(try await app.get("/api/v1/announcements").text.contains(id))
                let notAPhoto = try await {
                    var text = Multipart()
                    text.file("photo", fileName: "a.txt", contentType: "text/plain", bytes: Array("hello".utf8))
                    return try await post(
                        photos,
                        body: text.body,
                        contentType: text.contentType,
                        headers: ["Authorization": "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()]
                    )
                }()
                #expect(notAPhoto.status == 400)
                #expect(notAPhoto.text.contains(#""code":"INVALID_FILE_FORMAT""#))
            }
        }

        @Test func a_duplicate_microchip_comes_back_as_a_field_problem() async throws {
            try await withDemo { app in
                var form = ReportForm()
                form.values["microchipNumber"] = "98765-43210-" + String(UInt16.random(in: 10000...65535))
                form.photo = try photoFixture("oriented-gps.jpg")
                #expect(try await app.submit(form).status == 201)
                let again = try await app.submit(form)
                #expect(again.status == 409)
                #expect(fieldErrors(again.text) == ["microchipNumber"])
                #expect(inputValue(again.text, name: "microchipNumber") == form.values["microchipNumber"])
            }
        }
    }
}
