import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// The gateway's cache seen from outside (docs/scaling.md): single-flight, freshness, stale-if-error.
    @Suite("Cache")
    struct CacheTests {
        private static let validList = #"""
            {"data":[{"id":"cache-1","petName":"Burek","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,
            "microchipNumber":null,"locationLatitude":52.2297,"locationLongitude":21.0122,"lastSeenDate":"2025-11-17",
            "email":null,"phone":null,"photoUrl":"/images/a.png","status":"MISSING","reward":null,
            "createdAt":"2025-11-18T10:00:00.000Z","updatedAt":"2025-12-01 14:24:13"}]}
            """#

        @Test func a_hundred_concurrent_requests_for_one_uncached_query_make_one_upstream_call() async throws {
            try await withApp(listJSON: Self.validList) { app in
                app.stub.setFault(.slow(.milliseconds(300)))
                let target = try app.url("/api/v1/announcements")

                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<100 {
                        group.addTask { try await fetch(target).status }
                    }
                    var collected: [Int] = []
                    for try await status in group { collected.append(status) }
                    return collected
                }

                #expect(statuses.count == 100)
                #expect(statuses.allSatisfy { $0 == 200 }, "statuses: \(Set(statuses))")
                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 1)
            }
        }

        @Test func within_the_ttl_repeated_requests_are_served_from_the_cache() async throws {
            try await withApp(listJSON: Self.validList, configure: { $0.cacheTTLSeconds = 30 }) { app in
                _ = try await app.get("/api/v1/announcements")
                _ = try await app.get("/pets")
                _ = try await app.get("/")

                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 1)
            }
        }

        @Test func after_the_ttl_the_upstream_is_asked_again() async throws {
            try await withApp(listJSON: Self.validList, configure: { $0.cacheTTLSeconds = 0.2 }) { app in
                _ = try await app.get("/api/v1/announcements")
                app.clock.advance(by: .milliseconds(300))

                let second = try await app.get("/api/v1/announcements")

                #expect(second.status == 200)
                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 2)
                // Revalidated with the stored ETag (the stub answers 304).
                #expect(app.stub.lastRequestHeaders?[.ifNoneMatch] != nil)
            }
        }

        @Test func when_the_upstream_fails_a_warm_cache_is_served_stale_on_the_api_and_the_page() async throws {
            try await withApp(
                listJSON: Self.validList,
                configure: {
                    $0.cacheTTLSeconds = 0.2
                    $0.staleMaxSeconds = 30
                }
            ) { app in
                let warm = try await app.get("/api/v1/announcements")
                #expect(warm.status == 200)
                #expect(warm.header("X-PetSpot-Stale") == nil)
                app.stub.setFault(.status(500))
                app.clock.advance(by: .milliseconds(300))

                let api = try await app.get("/api/v1/announcements")
                let page = try await app.get("/pets")

                #expect(api.status == 200)
                #expect(api.header("X-PetSpot-Stale") == "true")
                #expect(Int(try #require(api.header("Age"))) != nil)
                #expect(api.text.contains(#""id":"cache-1""#))
                #expect(page.status == 200)
                #expect(page.text.contains(#"data-testid="stale-notice""#))
                #expect(page.text.contains(#"data-pet-id="cache-1""#))
                #expect(page.header("Cache-Control") == "no-cache")
                #expect(app.stub.requestCount(path: "/api/v1/announcements") >= 2)
            }
        }

        @Test func when_the_upstream_is_stopped_a_warm_cache_is_still_served() async throws {
            try await withApp(listJSON: Self.validList, configure: { $0.cacheTTLSeconds = 0.2 }) { app in
                _ = try await app.get("/api/v1/announcements")
                await app.stub.stop()
                app.clock.advance(by: .milliseconds(300))

                let api = try await app.get("/api/v1/announcements")

                #expect(api.status == 200)
                #expect(api.header("X-PetSpot-Stale") == "true")
            }
        }

        @Test func beyond_stale_max_a_failing_upstream_is_a_502() async throws {
            try await withApp(
                listJSON: Self.validList,
                configure: {
                    $0.cacheTTLSeconds = 0.2
                    $0.staleMaxSeconds = 0.5
                }
            ) { app in
                _ = try await app.get("/api/v1/announcements")
                app.stub.setFault(.status(500))
                app.clock.advance(by: .milliseconds(700))

                let api = try await app.get("/api/v1/announcements")
                let page = try await app.get("/pets")

                #expect(api.status == 502)
                #expect(api.header("X-PetSpot-Stale") == nil)
                #expect(page.status == 502)
                #expect(!page.text.contains(#"data-testid="stale-notice""#))
            }
        }

        @Test func a_fresh_response_has_no_stale_marker_and_an_age_header() async throws {
            try await withApp(listJSON: Self.validList) { app in
                let response = try await app.get("/api/v1/announcements")

                #expect(response.header("X-PetSpot-Stale") == nil)
                #expect(response.header("Age") == "0")
            }
        }

        @Test func failures_are_not_cached() async throws {
            try await withApp(listJSON: Self.validList) { app in
                app.stub.setFault(.status(500))
                #expect(try await app.get("/api/v1/announcements").status == 502)
                app.stub.setFault(.none)

                let response = try await app.get("/api/v1/announcements")

                #expect(response.status == 200)
            }
        }
    }
}
