import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// Every upstream fault mode gives the right status, quickly, on the list page and the JSON API,
    /// without leaking upstream internals, and the server keeps serving afterwards (docs/upstream.md §4 "Errors").
    @Suite("Gateway faults", .serialized)
    struct GatewayFaultTests {
        struct FaultCase: Sendable, CustomTestStringConvertible {
            let name: String
            let fault: StubUpstream.Fault
            let status: Int
            var testDescription: String { "\(name) → \(status)" }
        }

        static let cases: [FaultCase] = [
            FaultCase(name: "status 500", fault: .status(500), status: 502),
            FaultCase(name: "status 503", fault: .status(503), status: 502),
            FaultCase(name: "status 400", fault: .status(400), status: 502),
            FaultCase(name: "slow 3 s with a 1 s timeout", fault: .slow(.seconds(3)), status: 504),
            FaultCase(name: "malformed JSON", fault: .malformedJSON, status: 502),
            FaultCase(name: "truncated body", fault: .truncatedBody, status: 502),
            FaultCase(name: "huge body over the 8 MiB cap", fault: .hugeBody(9_000_000), status: 502),
            FaultCase(name: "wrong content type", fault: .wrongContentType, status: 502),
            FaultCase(name: "null data", fault: .nullData, status: 502),
        ]

        private static let validList = #"""
            {"data":[{"id":"fault-1","petName":"Burek","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,
            "microchipNumber":null,"locationLatitude":52.2297,"locationLongitude":21.0122,"lastSeenDate":"2025-11-17",
            "email":null,"phone":null,"photoUrl":"/images/a.png","status":"MISSING","reward":null,
            "createdAt":"2025-11-18T10:00:00.000Z","updatedAt":"2025-12-01 14:24:13"}]}
            """#

        /// `uncached`, with an upstream timeout fit for `fault`: only the slow fault is about the timeout. The
        /// 9 MB of the huge body took over the 1 s default under AddressSanitizer on a loaded machine (a
        /// 504 where the cap's 502 was asked about), so the other faults get 10 s.
        private static func configuration(for fault: FaultCase) -> @Sendable (inout AppConfiguration) -> Void {
            { configuration in
                uncached(&configuration)
                if case .slow = fault.fault { return }
                configuration.upstreamTimeoutSeconds = 10
            }
        }

        /// No fresh or stale copies, so every request reaches the (faulty) upstream.
        private static func uncached(_ configuration: inout AppConfiguration) {
            configuration.cacheTTLSeconds = 0
            configuration.staleMaxSeconds = 0
            // The huge-body case sends 9 MB: under the 64 MiB default, so the limit is set lower here.
            configuration.upstreamMaxBodyMegabytes = 8
        }

        /// First requests of a process (templates, HTTP client, connections) are slow on a loaded
        /// 2-core machine; warm up so the request under test meets the fault, not the start-up.
        private func warmUp(_ app: TestApp) async throws {
            // Without ETags the warm copy cannot be revalidated by a bodiless 304, which no fault bends.
            app.stub.setETagsEnabled(false)
            let page = try await app.get("/pets")
            let api = try await app.get("/api/v1/announcements")
            #expect(page.status == 200)
            #expect(api.status == 200)
            // The app's clock stands still until moved: past the zero TTL and stale window.
            app.clock.advance(by: .milliseconds(1))
        }

        private func expectVisitorSafeHTML(_ response: Fetched, status: Int) {
            #expect(response.status == status)
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(response.text.contains("Unable to load data. Please try again later."))
            #expect(response.text.contains(#"data-testid="error-message""#))
            #expect(!response.text.contains("INTERNAL_SERVER_ERROR"))
            #expect(!response.text.contains("Sign in to Wi-Fi"))
            #expect(!response.text.contains("UpstreamFailure"))
            #expect(!response.text.contains("127.0.0.1:"))
        }

        private func expectJSONError(_ response: Fetched, status: Int) throws {
            #expect(response.status == status)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let error = try #require(object["error"] as? [String: Any])
            #expect((error["code"] as? String)?.isEmpty == false)
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(!response.text.contains("UpstreamFailure"))
            #expect(!response.text.contains("127.0.0.1:"))
        }

        @Test(arguments: cases)
        func a_fault_on_the_list_page_gives_the_right_status_and_the_server_recovers(_ fault: FaultCase) async throws {
            try await withApp(listJSON: Self.validList, configure: Self.configuration(for: fault)) { app in
                try await warmUp(app)
                app.stub.setFault(fault.fault)

                let response = try await app.get("/pets")

                // For the slow fault, 504 itself shows our 1 s timeout answered: the upstream would
                // have answered 200 after 3 s. No wall-clock bound (house rule).
                expectVisitorSafeHTML(response, status: fault.status)
                #expect(response.header("Cache-Control") == "no-store")

                app.stub.setFault(.none)
                let recovered = try await app.get("/pets")
                #expect(recovered.status == 200)
                #expect(recovered.text.contains(#"data-pet-id="fault-1""#))
            }
        }

        @Test(arguments: cases)
        func a_fault_on_the_api_gives_the_right_json_error_and_the_server_recovers(_ fault: FaultCase) async throws {
            try await withApp(listJSON: Self.validList, configure: Self.configuration(for: fault)) { app in
                try await warmUp(app)
                app.stub.setFault(fault.fault)

                let response = try await app.get("/api/v1/announcements")

                try expectJSONError(response, status: fault.status)

                app.stub.setFault(.none)
                let recovered = try await app.get("/api/v1/announcements")
                #expect(recovered.status == 200)
                #expect(recovered.text.contains(#""id":"fault-1""#))
            }
        }

        @Test func a_down_upstream_gives_502_on_the_page_and_the_api_and_the_server_keeps_serving() async throws {
            let dead = try StubUpstream.start()
            let deadURL = URL(string: dead.baseURL)
            await dead.stop()

            try await withApp(configure: { $0.upstreamURL = deadURL }) { app in
                let page = try await app.get("/pets")
                let api = try await app.get("/api/v1/announcements")

                expectVisitorSafeHTML(page, status: 502)
                try expectJSONError(api, status: 502)
                let health = try await app.get("/healthz")
                let file = try await app.get("/static/css/site.css")
                #expect(health.status == 200)
                #expect(file.status == 200)
            }
        }

        @Test func a_slow_upstream_on_the_api_is_a_504_upstream_timeout() async throws {
            try await withApp { app in
                app.stub.setFault(.slow(.seconds(3)))

                let response = try await app.get("/api/v1/announcements")

                #expect(response.status == 504)
                let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                #expect((object["error"] as? [String: Any])?["code"] as? String == "UPSTREAM_TIMEOUT")
            }
        }

        @Test func a_fault_on_details_gives_502_unable_to_load_pet_details() async throws {
            try await withApp { app in
                app.stub.setFault(.status(500))

                let page = try await app.get("/pets/some-id")
                let api = try await app.get("/api/v1/announcements/some-id")

                #expect(page.status == 502)
                #expect(page.text.contains("Unable to load pet details"))
                #expect(api.status == 502)
            }
        }
    }
}
