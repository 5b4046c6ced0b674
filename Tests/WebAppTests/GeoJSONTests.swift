import Foundation
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// `GET /api/v1/announcements.geojson` (docs/upstream.md §4): RFC 7946 GeoJSON of what `/map` shows, over
    /// `pages-list.json` (pet-N at 52.2297 + N·0.001° N, 21.0122° E; FOUND when N % 3 == 0; species
    /// by N % 4: CAT, DOG, BIRD, RABBIT).
    @Suite("GeoJSON API")
    struct GeoJSONTests {
        private func features(_ response: Fetched) throws -> [[String: Any]] {
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(object["type"] as? String == "FeatureCollection")
            return try #require(object["features"] as? [[String: Any]])
        }

        private func properties(_ feature: [String: Any]) throws -> [String: Any] {
            try #require(feature["properties"] as? [String: Any])
        }

        private func ids(_ response: Fetched) throws -> [String] {
            try features(response).map { try properties($0)["id"] as? String ?? "" }
        }

        @Test func every_valid_announcement_is_a_point_feature_with_longitude_first() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let response = try await app.get("/api/v1/announcements.geojson")

                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "application/geo+json")
                let all = try features(response)
                #expect(all.count == 45)
                #expect(try ids(response) == ListPageTests.newestFirst)
                let pet7 = try #require(try all.first { try properties($0)["id"] as? String == "pet-07" })
                #expect(pet7["type"] as? String == "Feature")
                let geometry = try #require(pet7["geometry"] as? [String: Any])
                #expect(geometry["type"] as? String == "Point")
                let coordinates = try #require(geometry["coordinates"] as? [Double])
                #expect(coordinates == [21.0122, 52.2367])
            }
        }

        @Test func a_feature_carries_the_properties_a_map_popup_needs() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let all = try features(try await app.get("/api/v1/announcements.geojson"))

                let pet6 = try properties(try #require(try all.first { try properties($0)["id"] as? String == "pet-06" }))
                #expect(pet6["name"] as? String == "Pet 6")
                #expect(pet6["status"] as? String == "FOUND")
                #expect(pet6["species"] as? String == "BIRD")
                #expect(pet6["url"] as? String == "/pets/pet-06")
                #expect(pet6["photo"] as? String == "/images/pet-06.jpg?w=320")
                #expect(pet6["createdAt"] as? String == "2025-10-03T02:00:00.000Z")
                #expect(pet6["distanceKm"] == nil)
            }
        }

        @Test func status_and_species_filter_the_features() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let found = try await app.get("/api/v1/announcements.geojson?status=found&species=cat")

                #expect(found.status == 200)
                // FOUND (N % 3 == 0) cats (N % 4 == 0): 12, 24, 36.
                #expect(try ids(found) == ["pet-36", "pet-24", "pet-12"])
            }
        }

        @Test func located_features_carry_distances_and_stay_within_the_range() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let response = try await app.get("/api/v1/announcements.geojson?lat=52.2297&lng=21.0122&range=2&sort=nearest")

                #expect(response.status == 200)
                let all = try features(response)
                // pet-N is N·0.1112 km north: pet-01 … pet-17 lie within 2 km.
                #expect(try ids(response) == (1...17).map { String(format: "pet-%02d", $0) })
                let distances = try all.map { try #require(try properties($0)["distanceKm"] as? Double) }
                #expect(distances.first == 0.1)
                #expect(distances.last == 1.9)
                #expect(distances.allSatisfy { $0 < 2 })
            }
        }

        @Test func the_default_range_when_located_is_the_list_pages_15_km() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                // 52.2297 − 0.12°: pet-N is (120 + N)·0.1112 km away, within 15 km only for N ≤ 14.
                let response = try await app.get("/api/v1/announcements.geojson?lat=52.1097&lng=21.0122")

                #expect(Set(try ids(response)) == Set((1...14).map { String(format: "pet-%02d", $0) }))
            }
        }

        @Test(arguments: [
            ("lat=52.2", "lng"), ("lat=abc&lng=21", "lat"), ("lat=52&lng=21&range=0", "range"),
            ("status=lost", "status"), ("species=dinosaur", "species"), ("sort=nearest", "sort"),
        ])
        func a_bad_parameter_is_a_json_400_naming_it(query: String, field: String) async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let response = try await app.get("/api/v1/announcements.geojson?\(query)")

                #expect(response.status == 400)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                let error = try #require(object["error"] as? [String: Any])
                #expect(error["code"] as? String == "INVALID_PARAMETER")
                #expect(error["field"] as? String == field)
            }
        }

        @Test func the_answer_is_conditional_and_kept_per_snapshot() async throws {
            try await withApp(listJSON: try fixture("pages-list.json")) { app in
                let first = try await app.get("/api/v1/announcements.geojson?species=dog")
                let etag = try #require(first.header("ETag"))
                #expect(first.header("Cache-Control")?.contains("max-age=") == true)

                let second = try await app.get("/api/v1/announcements.geojson?species=dog", headers: ["If-None-Match": etag])

                #expect(second.status == 304)
                #expect(second.body.isEmpty)
                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 1)
            }
        }

        @Test func upstream_text_is_escaped_as_json() async throws {
            try await withApp(listJSON: try fixture("api-mixed-list.json")) { app in
                let response = try await app.get("/api/v1/announcements.geojson")

                #expect(response.status == 200)
                #expect(!response.text.contains("<b>"))
                let names = try features(response).compactMap { try properties($0)["name"] as? String }
                #expect(names.contains("<b>Rex</b> &amp; co"))
            }
        }

        @Test func a_city_only_place_has_no_point_and_is_left_out_and_an_unnamed_pet_has_a_null_name() async throws {
            let list = #"""
                {"data":[
                 {"id":"city-1","petName":"Fredi","status":"ACTIVE","lastSeenDate":"2025-11-18","species":"DOG","location":"Kamionka",
                  "locationRadius":5,"createdAt":"2025-11-19T15:47:14.000Z","updatedAt":"2025-11-19T15:47:14.000Z","photoUrl":"/images/f.jpg"},
                 {"id":"point-1","petName":null,"status":"FOUND","lastSeenDate":"2025-11-18","species":"CAT","locationLatitude":52.1,
                  "locationLongitude":21,"createdAt":"2025-11-19T15:47:14.000Z","updatedAt":"2025-11-19T15:47:14.000Z","photoUrl":"/images/c.jpg"}
                ]}
                """#
            try await withApp(listJSON: list) { app in
                let response = try await app.get("/api/v1/announcements.geojson")

                #expect(try ids(response) == ["point-1"])
                #expect(response.text.contains(#""name":null"#))
                #expect(response.text.contains(#""coordinates":[21,52.1]"#))
            }
        }

        @Test func an_upstream_failure_is_the_json_api_error() async throws {
            try await withApp { app in
                app.stub.setFault(.status(500))

                let response = try await app.get("/api/v1/announcements.geojson")

                #expect(response.status == 502)
                #expect(response.text.contains("UPSTREAM_UNAVAILABLE"))
            }
        }
    }
}
