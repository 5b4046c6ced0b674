import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// `GET /api/v1/announcements[/{id}]` (docs/upstream.md §4): validated, normalized, in the
    /// current backend's shape.
    @Suite("JSON API")
    struct APITests {
        static let backendKeys: Set<String> = [
            "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
            "locationLatitude", "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl",
            "status", "reward", "createdAt", "updatedAt",
        ]

        private func items(_ response: Fetched) throws -> [[String: Any]] {
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            return try #require(object["data"] as? [[String: Any]])
        }

        private func errorObject(_ response: Fetched) throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            return try #require(object["error"] as? [String: Any])
        }

        @Test func the_list_holds_exactly_the_valid_items_newest_first() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let response = try await app.get("/api/v1/announcements")

                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                let ids = try items(response).compactMap { $0["id"] as? String }
                #expect(ids == ["api-valid-newest", "api-valid-html-name", "api-valid-oldest"])
            }
        }

        @Test func a_duplicated_id_keeps_the_first_item() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let list = try items(try await app.get("/api/v1/announcements"))

                let kept = list.filter { $0["id"] as? String == "api-valid-oldest" }
                #expect(kept.count == 1)
                #expect(kept.first?["petName"] as? String == "Burek")
            }
        }

        @Test func every_item_has_all_18_backend_keys_with_explicit_nulls_and_upper_case_status() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let response = try await app.get("/api/v1/announcements")

                let list = try items(response)
                #expect(list.count == 3)
                for item in list {
                    #expect(Self.backendKeys.isSubset(of: Set(item.keys)), "missing: \(Self.backendKeys.subtracting(item.keys))")
                    #expect(item["distanceKm"] == nil)
                    let status = try #require(item["status"] as? String)
                    #expect(status == status.uppercased())
                    let species = try #require(item["species"] as? String)
                    #expect(species == species.uppercased())
                }
                // Explicit nulls, not missing keys: the raw text says so.
                #expect(response.text.contains(#""breed":null"#))
                #expect(response.text.contains(#""reward":null"#))
                let htmlName = try #require(list.first { $0["id"] as? String == "api-valid-html-name" })
                #expect(htmlName["status"] as? String == "MISSING")
                #expect(htmlName["petName"] as? String == "<b>Rex</b> &amp; co")
            }
        }

        @Test func a_location_adds_distance_and_is_answered_from_the_whole_list() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let response = try await app.get("/api/v1/announcements?lat=52.23&lng=21.01")

                #expect(response.status == 200)
                // One snapshot of the whole list: the location never goes upstream (docs/scaling.md).
                let query = try #require(app.stub.lastRequestQuery)
                #expect(query.isEmpty)
                let list = try items(response)
                // The Kraków item is ~250 km away: outside the default 5 km range.
                #expect(list.compactMap { $0["id"] as? String }.sorted() == ["api-valid-html-name", "api-valid-oldest"])
                for item in list {
                    let distance = try #require(item["distanceKm"] as? Double)
                    #expect(distance >= 0 && distance < 5)
                }
            }
        }

        @Test func an_explicit_range_is_applied_locally() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let response = try await app.get("/api/v1/announcements?lat=52.23&lng=21.01&range=400")

                #expect(response.status == 200)
                #expect(app.stub.lastRequestQuery?.isEmpty == true)
                #expect(try items(response).count == 3)
            }
        }

        struct BadQuery: Sendable, CustomTestStringConvertible {
            let query: String
            let field: String
            var testDescription: String { "\(query) → \(field)" }
        }

        @Test(arguments: [
            BadQuery(query: "lat=52.23", field: "lng"),
            BadQuery(query: "lng=21.01", field: "lat"),
            BadQuery(query: "lat=abc&lng=21.01", field: "lat"),
            BadQuery(query: "lat=91&lng=21.01", field: "lat"),
            BadQuery(query: "lat=52.23&lng=181", field: "lng"),
            BadQuery(query: "lat=52.23&lng=21.01&range=0", field: "range"),
            BadQuery(query: "lat=52.23&lng=21.01&range=abc", field: "range"),
            BadQuery(query: "lat=52.23&lat=52.24&lng=21.01", field: "lat"),
            BadQuery(query: "lat=1e5&lng=21.01", field: "lat"),
            BadQuery(query: "lat=nan&lng=21.01", field: "lat"),
            BadQuery(query: "lat=52.23&lng=inf", field: "lng"),
            BadQuery(query: "lat=0x10&lng=21.01", field: "lat"),
            BadQuery(query: "lat=52abc&lng=21.01", field: "lat"),
            BadQuery(query: "lat=52.23&lng=21.01&range=1.5", field: "range"),
            BadQuery(query: "lat=52.23&lng=21.01&range=-3", field: "range"),
        ])
        func bad_parameters_are_a_400_json_error_naming_the_field(_ bad: BadQuery) async throws {
            try await withApp { app in
                let response = try await app.get("/api/v1/announcements?" + bad.query)

                #expect(response.status == 400)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                let error = try errorObject(response)
                #expect(error["field"] as? String == bad.field)
                #expect(error["code"] as? String == "INVALID_PARAMETER")
                #expect((error["message"] as? String)?.isEmpty == false)
                // The backend's body: our request id, the one in the response header, as the mobile apps read it.
                #expect(error["requestId"] as? String == response.header("X-Request-Id"))
                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 0)
            }
        }

        @Test func details_of_a_valid_announcement_are_200_in_the_backend_shape() async throws {
            try await withApp { app in
                app.stub.setDetails(id: "api-valid-oldest", json: try fixture("api-details-valid.json"))

                let response = try await app.get("/api/v1/announcements/api-valid-oldest")

                #expect(response.status == 200)
                let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                #expect(object["id"] as? String == "api-valid-oldest")
                #expect(Self.backendKeys.isSubset(of: Set(object.keys)))
                #expect(object["updatedAt"] as? String == "2025-12-01T14:24:13.000Z")
            }
        }

        @Test func details_of_an_unknown_id_are_a_404_not_found_json() async throws {
            try await withApp { app in
                let response = try await app.get("/api/v1/announcements/nobody")

                #expect(response.status == 404)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                let error = try errorObject(response)
                #expect(error["code"] as? String == "NOT_FOUND")
                #expect(error["requestId"] as? String == response.header("X-Request-Id"))
                #expect(error["field"] == nil)
            }
        }

        @Test func details_of_an_invalid_announcement_are_a_502_json() async throws {
            try await withApp { app in
                app.stub.setDetails(id: "api-invalid-species", json: try fixture("api-details-invalid.json"))

                let response = try await app.get("/api/v1/announcements/api-invalid-species")

                #expect(response.status == 502)
                let error = try errorObject(response)
                #expect(error["code"] as? String != nil)
                #expect(!response.text.contains("DINOSAUR"))
            }
        }

        @Test func the_list_has_an_etag_and_a_matching_if_none_match_gets_304() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let first = try await app.get("/api/v1/announcements")
                let etag = try #require(first.header("ETag"))
                #expect(first.header("Cache-Control")?.contains("max-age") == true)

                let second = try await app.get("/api/v1/announcements", headers: ["If-None-Match": etag])

                #expect(second.status == 304)
                #expect(second.body.isEmpty)
            }
        }

        @Test func the_request_id_is_forwarded_upstream() async throws {
            try await withApp { app in
                _ = try await app.get("/api/v1/announcements", headers: ["X-Request-Id": "forward-me-42"])

                #expect(app.stub.lastRequestHeaders?[.xRequestID] == "forward-me-42")
            }
        }

        @Test func a_generated_request_id_is_forwarded_upstream_and_returned() async throws {
            try await withApp { app in
                let response = try await app.get("/api/v1/announcements")

                let ours = try #require(response.header("X-Request-Id"))
                #expect(app.stub.lastRequestHeaders?[.xRequestID] == ours)
            }
        }
    }
}

extension ServerIntegration {
    /// The embedded demo upstream (docs/upstream.md §5): started in-process when no upstream is configured.
    @Suite("Embedded demo")
    struct EmbeddedDemoTests {
        @Test func without_an_upstream_the_demo_serves_its_19_valid_items() async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                #expect(app.app.upstreamURL.host == "127.0.0.1")
                #expect(app.app.upstreamURL.port != app.stub.port)

                let response = try await app.get("/api/v1/announcements")

                #expect(response.status == 200)
                let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                let ids = try #require(object["data"] as? [[String: Any]]).compactMap { $0["id"] as? String }
                #expect(ids.count == 19)
                for rejected in [
                    "74e949e5-e99f-4c66-affd-c31c698f418e", "59f2262b-b13c-478d-b8f4-2dd266ea3f58",
                    "875a9a0c-36a1-47d7-a1fa-f8479c790848", "da23f940-4f0f-4951-91a5-7df32be0fde8",
                ] {
                    #expect(!ids.contains(rejected), "\(rejected) is invalid and must be skipped")
                }
                #expect(ids.filter { $0 == "2c296a2b-f80a-498b-8cdb-a9e9d86ead4c" }.count == 1)
                #expect(app.stub.requestCount() == 0)
            }
        }
    }
}
