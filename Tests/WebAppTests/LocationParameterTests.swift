import Foundation
import HTTPTypes
import TestSupport
import Testing

extension ServerIntegration {
    /// `lat`, `lng` and `range` as the mobile apps send them, on the API and the pages alike:
    /// the backend's ranges and every plain decimal number form.
    @Suite("Location parameters")
    struct LocationParameterTests {
        /// 25 announcements around Warsaw's centre (two list pages), one in Kraków (~250 km away).
        static func listJSON() -> String {
            let warsaw = (1...25).map { number in
                let created = String(format: "2025-11-%02dT10:00:00.000Z", number)
                return PageJSON.item("near-\(number)", overrides: ["createdAt": created, "updatedAt": created])
            }
            let krakow = PageJSON.item("krakow", overrides: ["locationLatitude": 50.0647, "locationLongitude": 19.945])
            return PageJSON.list(warsaw + [krakow])
        }

        static let paths = ["/api/v1/announcements", "/pets"]

        @Test(arguments: paths, ["501", "10000", "20038", "99999", "99999999999999999999999"])
        func a_large_range_is_accepted_and_reaches_everything(path: String, range: String) async throws {
            try await withApp(listJSON: Self.listJSON()) { app in
                let response = try await app.get("\(path)?lat=52.2297&lng=21.0122&range=\(range)")

                #expect(response.status == 200)
                if path.hasPrefix("/api/") {
                    let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                    #expect((object["data"] as? [Any])?.count == 26)
                }
            }
        }

        @Test func a_range_above_half_the_earth_is_carried_in_links_as_20038() async throws {
            try await withApp(listJSON: Self.listJSON()) { app in
                let page1 = try await app.get("/pets?lat=52.2297&lng=21.0122&range=99999")

                #expect(page1.status == 200)
                let next = try #require(try ListPageTests.paginationLinks(page1.text).next)
                #expect(PageHTML.query(of: next) == ["lat": "52.2297", "lng": "21.0122", "range": "20038", "page": "2"])
                let page2 = try await app.get(next)
                #expect(page2.status == 200)
                #expect(PageHTML.petIDs(page2.text).count == 6)
            }
        }

        @Test(arguments: paths, ["lat=1e-05&lng=-5E-5", "lat=.5&lng=52.", "lat=%2B1.5&lng=-0.0", "lat=5.2E1&lng=2.1e%2B1"])
        func every_plain_decimal_form_is_accepted(path: String, query: String) async throws {
            try await withApp(listJSON: Self.listJSON()) { app in
                let response = try await app.get("\(path)?\(query)")

                #expect(response.status == 200)
            }
        }

        @Test(
            arguments: paths,
            [
                ("lat=nan&lng=21.0122", "lat"), ("lat=52.2297&lng=inf", "lng"), ("lat=-Infinity&lng=21.0122", "lat"),
                ("lat=0x10&lng=21.0122", "lat"), ("lat=1e5&lng=21.0122", "lat"), ("lat=52abc&lng=21.0122", "lat"),
                ("lat=52.2297&lng=1e", "lng"), ("lat=.&lng=21.0122", "lat"), ("lat=52.2297&lng=181", "lng"),
                ("lat=52.2297&lng=21.0122&range=0", "range"), ("lat=52.2297&lng=21.0122&range=1.5", "range"),
                ("lat=52.2297&lng=21.0122&range=-5", "range"), ("lat=52.2297&lng=21.0122&range=1e3", "range"),
            ]
        )
        func refusals_are_a_400_naming_the_parameter(path: String, bad: (String, String)) async throws {
            let (query, parameter) = bad
            try await withApp(listJSON: Self.listJSON()) { app in
                let response = try await app.get("\(path)?\(query)")

                #expect(response.status == 400)
                if path.hasPrefix("/api/") {
                    let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                    let error = try #require(object["error"] as? [String: Any])
                    #expect(error["field"] as? String == parameter)
                    #expect(error["requestId"] as? String == response.header("X-Request-Id"))
                } else {
                    #expect(response.text.contains("‘\(parameter)’"))
                }
            }
        }

        @Test func an_upstream_failure_names_the_clients_request_id() async throws {
            try await withApp { app in
                app.stub.setFault(.status(500))

                let response = try await app.get("/api/v1/announcements", headers: ["X-Request-Id": "trace-me-17"])

                #expect(response.status == 502)
                let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                let error = try #require(object["error"] as? [String: Any])
                #expect(error["requestId"] as? String == "trace-me-17")
                #expect(response.header("X-Request-Id") == "trace-me-17")
                #expect(error["field"] == nil)
            }
        }
    }
}
