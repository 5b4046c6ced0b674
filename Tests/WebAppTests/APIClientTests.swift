import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import PetSpotAPIClient
import TestSupport
import Testing

@testable import WebApp

/// The typed client generated from docs/openapi.yaml (Sources/PetSpotAPIClient, docs/openapi.md) against
/// the real server on its embedded demo upstream: what the document promises, a client made from it gets.
/// Also the PetSpot iOS app's report flow, with its exact request bodies, as a real client found it.
extension ServerIntegration {
    @Suite("API through the generated client")
    struct APIClientTests {
        /// The app in front of the embedded demo upstream.
        private func withDemo(configure: (inout AppConfiguration) -> Void = { _ in }, _ body: (TestApp) async throws -> Void) async throws {
            try await withApp(
                configure: {
                    $0.upstreamURL = nil
                    configure(&$0)
                },
                body
            )
        }

        /// The generated client for `app`; dates with fractional seconds, as the backend writes them.
        private func client(_ app: TestApp, password: (id: String, code: String)? = nil) -> Client {
            Client(
                serverURL: app.base,
                configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
                transport: URLSessionTransport(),
                middlewares: password.map { [BasicAuthentication(user: $0.id, password: $0.code)] } ?? []
            )
        }

        /// The iOS app's create body (`CreateAnnouncementRequestDTO`: its keys in its order, `nil`
        /// optionals left out by `JSONEncoder`), with the free-text reward the app allows.
        static func iOSBody(petName: String = "Fluffy", reward: String = "A big hug and a box of chocolates") throws -> Data {
            let name = String(decoding: try JSONEncoder().encode(petName), as: UTF8.self)
            let rewardJSON = String(decoding: try JSONEncoder().encode(reward), as: UTF8.self)
            return Data(
                (#"{"species":"CAT","breed":"European Shorthair","sex":"FEMALE","age":3,"lastSeenDate":"2025-11-20","#
                    + #""locationLatitude":52.2297,"locationLongitude":21.0122,"email":"owner@example.com","phone":"+48601234567","#
                    + #""status":"MISSING","petName":\#(name),"description":"Grey tabby, very shy.","reward":\#(rewardJSON)}"#).utf8
            )
        }

        /// Creates with `body` as the app sends it, then sends the photo through the generated client.
        private func report(_ body: Data, on app: TestApp) async throws -> (id: String, code: String) {
            let created = try await post(try app.url("/api/v1/announcements"), body: body, contentType: "application/json")
            try #require(created.status == 201, "create answered \(created.status): \(created.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            let made = (id: try #require(object["id"] as? String), code: try #require(object["managementPassword"] as? String))
            let photo = Operations.UploadPhoto.Input.Body.MultipartFormPayload.photo(
                .init(payload: .init(body: HTTPBody(try photoFixture("oriented-gps.jpg"))), filename: "cat.jpg")
            )
            let uploaded = try await client(app, password: made).uploadPhoto(
                .init(path: .init(id: made.id), body: .multipartForm([photo]))
            )
            guard case .created = uploaded else {
                Issue.record("the photo upload answered \(uploaded)")
                return made
            }
            return made
        }

        @Test func the_client_reads_the_list_details_and_geojson_with_etags() async throws {
            try await withDemo { app in
                let api = client(app)
                let list = try await api.listAnnouncements(.init(query: .init(near: .init(lat: 52.2297, lng: 21.0122, range: 20_000))))
                let ok = try list.ok
                let items = try ok.body.json.data
                #expect(items.count >= 10)
                #expect(items.allSatisfy { $0.distanceKm != nil }, "a located list has distances")
                let etag = try #require(ok.headers.eTag)
                #expect(ok.headers.cacheControl?.contains("max-age=") == true)

                // HTTP's own conditional header, as an HTTP cache sends it (docs/openapi.yaml `info`).
                let conditional = Client(
                    serverURL: app.base,
                    configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
                    transport: URLSessionTransport(),
                    middlewares: [HeaderField(name: .ifNoneMatch, value: etag)]
                )
                let again = try await conditional.listAnnouncements(.init(query: .init(near: .init(lat: 52.2297, lng: 21.0122, range: 20_000))))
                guard case .notModified = again else {
                    Issue.record("If-None-Match with the list's ETag answered \(again)")
                    return
                }

                let first = try #require(items.first)
                let details = try await api.getAnnouncement(.init(path: .init(id: first.id)))
                #expect(try details.ok.body.json.id == first.id)
                let unknown = try await api.getAnnouncement(.init(path: .init(id: "no-such-pet")))
                #expect(try unknown.notFound.body.json.error.code == "NOT_FOUND")

                let geo = try await api.announcementsGeoJSON(.init(query: .init(species: .cat)))
                let features = try geo.ok.body.applicationGeoJson.features
                #expect(!features.isEmpty && features.allSatisfy { $0.properties.species == .cat })

                let lonelyLatitude = try await app.get("/api/v1/announcements?lat=52.2")
                #expect(lonelyLatitude.status == 400 && lonelyLatitude.text.contains(#""field":"lng""#))
            }
        }

        /// The server's own answers below `/api/` (an undecodable URL, a refused method) are the API's
        /// JSON error, as the document promises for every answer (found by schemathesis: they were HTML).
        @Test func the_servers_own_answers_below_api_are_json() async throws {
            try await withDemo { app in
                let undecodable = try await fetch(try #require(URL(string: app.base.absoluteString + "/api/v1/announcements/a%00b")))
                #expect(undecodable.status == 400)
                #expect(undecodable.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(undecodable.text.contains(#""code":"INVALID_REQUEST""#) && undecodable.text.contains(#""requestId""#))
                let page = try await fetch(try #require(URL(string: app.base.absoluteString + "/pets/a%00b")))
                #expect(page.status == 400 && page.header("Content-Type")?.hasPrefix("text/html") == true)
                let method = try await app.get("/api/v1/announcements", method: "DELETE")
                #expect(method.status == 405 && method.header("Allow") == "GET, HEAD, POST")
                #expect(method.text.contains(#""code":"METHOD_NOT_ALLOWED""#))
            }
        }

        /// The real client's first finding: a free-text reward (the app allows 120 characters, the
        /// backend stores any text) got 400 from us and 201 from the backend.
        @Test func the_ios_apps_report_with_a_free_text_reward_is_made_and_shown_as_text() async throws {
            try await withDemo { app in
                let made = try await report(try Self.iOSBody(), on: app)

                let details = try await client(app).getAnnouncement(.init(path: .init(id: made.id)))
                #expect(try details.ok.body.json.reward == "A big hug and a box of chocolates")
                let page = try await app.get("/pets/\(made.id)")
                #expect(page.text.contains("Reward A big hug and a box of chocolates"))
                let list = try await app.get("/pets?sort=newest")
                #expect(list.text.contains("Reward A big hug and a box of chocolates"))

                let longest = String(repeating: "r", count: 120)
                let refused = try await post(
                    try app.url("/api/v1/announcements"),
                    body: try Self.iOSBody(reward: longest + "r"),
                    contentType: "application/json"
                )
                #expect(refused.status == 400 && refused.text.contains(#""field":"reward""#))
            }
        }

        /// The second finding: a 109-character pet name was refused. It is made, shown whole on its
        /// details page and shortened on cards; being upstream text, it is escaped everywhere.
        @Test func a_long_pet_name_is_made_shortened_on_cards_and_whole_on_details() async throws {
            try await withDemo { app in
                let name = "Sir <Reginald> & \"Reggie\" " + String(repeating: "Fluffington ", count: 6) + String(repeating: "x", count: 11)
                try #require(name.count == 109)
                let made = try await report(try Self.iOSBody(petName: name), on: app)

                let details = try await client(app).getAnnouncement(.init(path: .init(id: made.id)))
                #expect(try details.ok.body.json.petName == name)
                let escapedWhole = "Sir &lt;Reginald&gt; &amp; &quot;Reggie&quot; " + String(repeating: "Fluffington ", count: 6)
                let page = try await app.get("/pets/\(made.id)")
                #expect(page.text.contains(escapedWhole + String(repeating: "x", count: 11)))
                #expect(!page.text.contains("<Reginald>"))
                let list = try await app.get("/pets?sort=newest")
                #expect(list.text.contains("Sir &lt;Reginald&gt; &amp; &quot;Reggie&quot; Fluffington…"))
                #expect(!list.text.contains(escapedWhole))
                #expect(!list.text.contains("<Reginald>"))
            }
        }

        /// The app's "Try Again": its photo upload failed, and the app creates the same announcement again.
        /// The repeat answers the first `201` (same id, same code), so the upload then lands on it; once the
        /// photo is in, the same body is a new report again (docs/replicas.md "API writes").
        @Test func try_again_after_a_failed_upload_lands_on_the_first_announcement() async throws {
            try await withDemo { app in
                let body = try Self.iOSBody(petName: "Try Again \(UUID().uuidString.prefix(8))")
                let url = try app.url("/api/v1/announcements")
                let first = try await post(url, body: body, contentType: "application/json")
                #expect(first.status == 201)
                let object = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
                let made = (id: try #require(object["id"] as? String), code: try #require(object["managementPassword"] as? String))
                // The upload fails (bytes that are no photo), as a dropped connection would leave it.
                let broken = Operations.UploadPhoto.Input.Body.MultipartFormPayload.photo(
                    .init(payload: .init(body: HTTPBody(Array("not a photo".utf8))), filename: "cat.jpg")
                )
                let failed = try await client(app, password: made).uploadPhoto(.init(path: .init(id: made.id), body: .multipartForm([broken])))
                guard case .badRequest = failed else {
                    Issue.record("a broken photo is refused: \(failed)")
                    return
                }
                let again = try await post(url, body: body, contentType: "application/json")
                #expect(again.status == 201)
                #expect(again.text == first.text, "the same id and code")
                let photo = Operations.UploadPhoto.Input.Body.MultipartFormPayload.photo(
                    .init(payload: .init(body: HTTPBody(try photoFixture("oriented-gps.jpg"))), filename: "cat.jpg")
                )
                guard
                    case .created = try await client(app, password: made).uploadPhoto(.init(path: .init(id: made.id), body: .multipartForm([photo])))
                else {
                    Issue.record("the upload lands on the first announcement")
                    return
                }
                let listed = try await app.get("/api/v1/announcements")
                #expect(listed.text.components(separatedBy: "\"id\":\"\(made.id)\"").count == 2, "listed once")
                let anew = try await post(url, body: body, contentType: "application/json")
                #expect(anew.status == 201)
                #expect(!anew.text.contains(made.id), "once the photo is in, the same body is a new report")
            }
        }

        /// The third finding: the sixth report from one address in 10 minutes was refused, but phones
        /// behind a carrier's shared address all count as one. The API has its own limit.
        @Test func the_api_report_limit_is_counted_apart_from_the_forms() async throws {
            try await withDemo(configure: {
                $0.reportLimit = 1
                $0.apiReportLimit = 2
            }) { app in
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                #expect(try await app.submit(form).status == 201)

                // Two different reports: an identical repeat would be the apps' "Try Again" and answer the first 201.
                for number in 1...2 {
                    let body = try Self.iOSBody(petName: "Burek \(number)")
                    let created = try await post(try app.url("/api/v1/announcements"), body: body, contentType: "application/json")
                    #expect(created.status == 201, "the API's limit is its own: the form's one report does not count")
                }
                let api = client(app)
                let body = Components.Schemas.NewAnnouncement(
                    species: .cat,
                    sex: .female,
                    locationLatitude: 52.2297,
                    locationLongitude: 21.0122,
                    email: "owner@example.com",
                    lastSeenDate: "2025-11-20",
                    status: .missing
                )
                let third = try await api.createAnnouncement(.init(body: .json(body)))
                let refused = try third.tooManyRequests
                #expect(try refused.body.json.error.code == "TOO_MANY_REQUESTS")
                #expect(Int(try #require(refused.headers.retryAfter)) ?? 0 >= 1)

                var another = ReportForm()
                another.values["petName"] = "Second"
                another.photo = try photoFixture("oriented-gps.jpg")
                #expect(try await app.submit(another).status == 429, "the form's limit is used up by its own report")
            }
        }

        /// The fourth finding: `/images/{id}.jpeg` answered WebP even to `Accept: image/jpeg`, without
        /// `Vary: Accept`. Both forms are made, kept and served to the client that takes them.
        @Test func a_photo_is_jpeg_for_a_client_that_does_not_take_webp() async throws {
            try await withDemo { app in
                let made = try await report(try Self.iOSBody(), on: app)
                let photoURL = try await client(app).getAnnouncement(.init(path: .init(id: made.id))).ok.body.json.photoUrl
                let path = try #require(URL(string: photoURL)?.path)
                #expect(path == "/images/\(made.id).jpeg")

                // WebP three times: the third is given by the server's hook (`ResponseCache`).
                for _ in 1...3 {
                    let webp = try await app.get(path, headers: ["Accept": "image/avif,image/webp,*/*"])
                    #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary")?.contains("Accept") == true)
                    #expect(webp.body.prefix(4).elementsEqual("RIFF".utf8))
                }
                for _ in 1...3 {
                    let jpeg = try await app.get(path, headers: ["Accept": "image/jpeg"])
                    #expect(jpeg.status == 200 && jpeg.header("Content-Type") == "image/jpeg")
                    #expect(jpeg.header("Vary")?.contains("Accept") == true)
                    #expect(jpeg.body.prefix(3).elementsEqual([0xFF, 0xD8, 0xFF]))
                }
                let small = try await app.get(path + "?w=320", headers: ["Accept": "image/png, image/jpeg;q=0.9"])
                #expect(small.header("Content-Type") == "image/jpeg")
                let anything = try await app.get(path, headers: ["Accept": "*/*"])
                #expect(anything.header("Content-Type") == "image/webp")
            }
        }
    }
}

/// HTTP Basic with the announcement's id and management password, as the apps send a photo.
struct BasicAuthentication: ClientMiddleware {
    let user: String
    let password: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await HeaderField(name: .authorization, value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
            .intercept(request, body: body, baseURL: baseURL, operationID: operationID, next: next)
    }
}

/// One header field set on every request, as it is (not percent-encoded, as the runtime encodes declared headers).
struct HeaderField: ClientMiddleware {
    let name: HTTPField.Name
    let value: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[name] = value
        return try await next(request, body, baseURL)
    }
}

/// `PhotoFormat.preferred`: WebP unless the client's `Accept` does not take it.
@Suite struct PhotoFormatTests {
    @Test(
        arguments: [
            (nil, PhotoFormat.webp), ("", .webp), ("*/*", .webp), ("image/*", .webp),
            ("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", .webp),
            ("image/jpeg", .jpeg), ("image/png, image/jpeg;q=0.9", .jpeg), ("image/webp;q=0, */*", .jpeg),
            ("image/jpeg, */*;q=0.5", .jpeg), ("image/webp;q=0.5, image/jpeg", .jpeg), ("text/html", .jpeg),
        ] as [(String?, PhotoFormat)]
    )
    func the_format_follows_accept(accept: String?, format: PhotoFormat) {
        #expect(PhotoFormat.preferred(accept: accept) == format)
    }
}
