import DemoUpstream
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetDomain
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Specifications of the embedded demo upstream (docs/upstream.md §1, §5), called directly, no sockets.
/// Expectations are derived from the responses and PetDomain's Haversine, not from the data set.
@Suite struct DemoUpstreamTests {
    let backend = DemoBackend()

    private func get(_ path: String, query: [(String, String)] = [], headers: HTTPFields = [:]) async -> Response {
        let items = QueryItems(query.map { (name: $0.0, value: $0.1) })
        return await backend.handle(Request(method: .get, path: path, query: items, headers: headers))
    }

    private func object(_ response: Response) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(response.body))
        return try #require(value as? [String: Any])
    }

    private func items(_ response: Response) throws -> [[String: Any]] {
        try #require(try object(response)["data"] as? [[String: Any]])
    }

    @Test func list_leaves_out_items_without_photo_and_writes_all_keys() async throws {
        let list = try items(await get("/api/v1/announcements"))
        #expect(list.count >= 15)
        #expect(list.allSatisfy { $0["photoUrl"] is String })

        // The backend writes every key, nulls included (docs/upstream.md §1).
        let keys: Set<String> = [
            "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
            "locationLatitude", "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl",
            "status", "reward", "createdAt", "updatedAt",
        ]
        #expect(list.allSatisfy { Set($0.keys) == keys })
    }

    @Test func range_filter_around_krakow_returns_only_nearby_items() async throws {
        // Arrange: the Kraków Rynek.
        let rynek = try #require(Coordinate(latitude: 50.0614, longitude: 19.9372))

        // Act
        let all = try items(await get("/api/v1/announcements"))
        let query = [("lat", "50.0614"), ("lng", "19.9372"), ("range", "5")]
        let near = try items(await get("/api/v1/announcements", query: query))

        // Assert: exactly the items of the full list strictly closer than 5 km.
        func distance(_ item: [String: Any]) -> Double? {
            guard let lat = item["locationLatitude"] as? Double, let lng = item["locationLongitude"] as? Double,
                let place = Coordinate(latitude: lat, longitude: lng)
            else { return nil }
            return rynek.distanceKm(to: place)
        }
        let expected = all.filter { (distance($0) ?? .infinity) < 5 }.compactMap { $0["id"] as? String }
        #expect(!near.isEmpty)
        #expect(near.compactMap { $0["id"] as? String } == expected)
        #expect(near.count < all.count)
    }

    @Test func location_without_range_defaults_to_five_km() async throws {
        let warsaw = [("lat", "52.2297"), ("lng", "21.0122")]

        let explicit = try items(await get("/api/v1/announcements", query: warsaw + [("range", "5")]))
        let implicit = try items(await get("/api/v1/announcements", query: warsaw))
        let wide = try items(await get("/api/v1/announcements", query: warsaw + [("range", "500")]))

        #expect(implicit.compactMap { $0["id"] as? String } == explicit.compactMap { $0["id"] as? String })
        #expect(implicit.count < wide.count)
    }

    @Test(arguments: [
        ([("lat", "abc"), ("lng", "21")], "lat"),
        ([("lat", "91"), ("lng", "21")], "lat"),
        ([("lat", "52")], "lng"),
        ([("lng", "21")], "lat"),
        ([("lat", "52"), ("lng", "181")], "lng"),
        ([("lat", "52"), ("lng", "21"), ("range", "0")], "range"),
        ([("lat", "52"), ("lng", "21"), ("range", "2.5")], "range"),
        ([("lat", "52"), ("lng", "21"), ("range", "-3")], "range"),
    ])
    func bad_location_parameters_get_400_naming_the_field(query: [(String, String)], field: String) async throws {
        let response = await get("/api/v1/announcements", query: query)

        #expect(response.status == 400)
        let error = try #require(try object(response)["error"] as? [String: Any])
        #expect(error["code"] as? String == "INVALID_PARAMETER")
        #expect(error["field"] as? String == field)
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(error["requestId"] as? String == response.headers[HTTPField.Name("request-id")!])
    }

    @Test func unknown_announcement_is_a_json_404() async throws {
        let response = await get("/api/v1/announcements/00000000-0000-0000-0000-000000000000")

        #expect(response.status == 404)
        #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        let error = try #require(try object(response)["error"] as? [String: Any])
        #expect(error["code"] as? String == "NOT_FOUND")
        #expect(error["message"] as? String == "Announcement not found")
    }

    @Test func details_returns_the_bare_object_of_a_listed_id() async throws {
        let first = try #require(try items(await get("/api/v1/announcements")).first)
        let id = try #require(first["id"] as? String)

        let response = await get("/api/v1/announcements/\(id)")

        #expect(response.status == 200)
        #expect(try object(response)["id"] as? String == id)
    }

    @Test func relative_photo_is_served_as_svg_and_missing_image_is_json_404() async throws {
        let list = try items(await get("/api/v1/announcements"))
        let photo = try #require(list.compactMap { $0["photoUrl"] as? String }.first { $0.hasSuffix(".svg") })

        let image = await get(photo)
        let missing = await get("/images/no-such-file.jpg")

        #expect(image.status == 200)
        #expect(image.headers[.contentType] == "image/svg+xml")
        #expect(String(decoding: image.body, as: UTF8.self).contains("<svg"))
        #expect(missing.status == 404)
        #expect(missing.headers[.contentType]?.hasPrefix("application/json") == true)
    }

    @Test func matching_if_none_match_gets_304_with_empty_body() async throws {
        let first = await get("/api/v1/announcements")
        let etag = try #require(first.headers[.eTag])
        #expect(etag.hasPrefix("W/\""))

        let second = await get("/api/v1/announcements", headers: [.ifNoneMatch: etag])
        let stale = await get("/api/v1/announcements", headers: [.ifNoneMatch: "W/\"0-0\""])

        #expect(second.status == 304)
        #expect(second.body.isEmpty)
        #expect(stale.status == 200)
        #expect(stale.headers[.eTag] == etag)
    }

    @Test func every_response_has_a_ten_character_request_id_and_cors() async throws {
        for path in ["/api/health", "/api/v1/announcements", "/nowhere", "/images/x.png"] {
            let response = await get(path)
            let id = try #require(response.headers[HTTPField.Name("request-id")!])
            #expect(id.count == 10)
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            #expect(response.headers[.cacheControl] == nil)
        }
    }

    @Test func whole_number_coordinates_are_written_without_fraction() async throws {
        let response = await get("/api/v1/announcements")
        let text = String(decoding: response.body, as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: #""location(Latitude|Longitude)":-?[0-9]+\.0[,}]"#)

        let matches = pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))

        #expect(matches == 0)
    }
}

/// Real-socket checks of both fakes: they are only useful if they behave over HTTP as they do in
/// memory. Each test starts its servers on port 0 and always stops them.
@Suite struct UpstreamFakesOverHTTPTests {
    private func fetch(_ url: String, headers: [String: String] = [:]) async throws -> (Int, HTTPURLResponse, Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http, data)
    }

    /// Runs `body` against a fresh stub and stops it whatever happens.
    private func withStub(_ body: (StubUpstream) async throws -> Void) async throws {
        let stub = try StubUpstream.start()
        do {
            try await body(stub)
        } catch {
            await stub.stop()
            throw error
        }
        await stub.stop()
    }

    @Test func demo_upstream_serves_the_list_on_a_free_port() async throws {
        let server = try DemoUpstream.start(logger: Logger(label: "demo-test"))
        let port = server.port
        let fetched: (Int, HTTPURLResponse, Data)
        do {
            fetched = try await fetch("http://127.0.0.1:\(port)/api/v1/announcements")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()

        let (status, response, body) = fetched
        #expect(port > 0)
        #expect(status == 200)
        #expect(response.value(forHTTPHeaderField: "request-id")?.count == 10)
        let list = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect((list["data"] as? [Any])?.isEmpty == false)
    }

    @Test func stub_serves_programmed_content_counts_and_records_requests() async throws {
        try await withStub { stub in
            stub.setList(#"{"data":[{"id":"x"}]}"#)

            let listURL = stub.baseURL + "/api/v1/announcements?lat=50"
            let (status, _, body) = try await fetch(listURL, headers: ["X-Request-Id": "abc"])
            let forwardedID = stub.lastRequestHeaders?[.xRequestID]
            let forwardedLat = stub.lastRequestQuery?["lat"]
            let (missing, _, _) = try await fetch(stub.baseURL + "/api/v1/announcements/nope")

            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self) == #"{"data":[{"id":"x"}]}"#)
            #expect(forwardedID == "abc")
            #expect(forwardedLat == "50")
            #expect(missing == 404)
            #expect(stub.requestCount() == 2)
            #expect(stub.requestCount(path: "/api/v1/announcements") == 1)
            stub.resetCounts()
            #expect(stub.requestCount() == 0)
        }
    }

    @Test func stub_fault_modes_switch_at_runtime() async throws {
        try await withStub { stub in
            let url = stub.baseURL + "/api/v1/announcements"

            stub.setFault(.status(500))
            let (failed, _, _) = try await fetch(url)
            stub.setFault(.nullData)
            let (_, _, nullBody) = try await fetch(url)
            stub.setFault(.hugeBody(50_000))
            let (_, _, huge) = try await fetch(url)
            stub.setFault(.wrongContentType)
            let (_, html, _) = try await fetch(url)
            stub.setFault(.none)
            let (recovered, _, _) = try await fetch(url)

            #expect(failed == 500)
            #expect(String(decoding: nullBody, as: UTF8.self) == #"{"data":null}"#)
            #expect(huge.count == 50_000)
            #expect((try JSONSerialization.jsonObject(with: huge) as? [String: Any])?["data"] is [Any])
            #expect(html.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/html") == true)
            #expect(recovered == 200)
        }
    }

    @Test func stub_answers_304_to_a_matching_etag_unless_disabled() async throws {
        try await withStub { stub in
            let url = stub.baseURL + "/api/v1/announcements"
            let (_, first, _) = try await fetch(url)
            let etag = try #require(first.value(forHTTPHeaderField: "ETag"))

            let (revalidated, _, _) = try await fetch(url, headers: ["If-None-Match": etag])
            stub.setETagsEnabled(false)
            let (disabled, _, _) = try await fetch(url, headers: ["If-None-Match": etag])

            #expect(revalidated == 304)
            #expect(disabled == 200)
        }
    }
}
