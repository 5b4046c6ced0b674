import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// Server core behaviour (docs/upstream.md §4): security headers everywhere, 404/405, request ids, health,
    /// readiness and metrics.
    @Suite("Server behaviour")
    struct ServerBehaviourTests {
        private static let oneValidItem = #"""
            {"data":[{"id":"srv-1","petName":"Burek","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,
            "microchipNumber":null,"locationLatitude":52.2297,"locationLongitude":21.0122,"lastSeenDate":"2025-11-17",
            "email":null,"phone":null,"photoUrl":"/images/a.png","status":"MISSING","reward":null,
            "createdAt":"2025-11-18T10:00:00.000Z","updatedAt":"2025-12-01 14:24:13"}]}
            """#

        private func expectSecurityHeaders(_ response: Fetched, _ what: String) {
            #expect(response.header("Content-Security-Policy")?.contains("default-src") == true, "\(what): CSP")
            #expect(response.header("Content-Security-Policy")?.contains("unsafe-inline") == false, "\(what): CSP inline")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(what): nosniff")
            #expect(response.header("X-Frame-Options") == "DENY", "\(what): framing")
            #expect(response.header("Referrer-Policy") == "strict-origin-when-cross-origin", "\(what): referrer")
            #expect(response.header("Permissions-Policy")?.contains("geolocation=(self)") == true, "\(what): permissions")
        }

        @Test func security_headers_are_on_pages_static_files_api_and_errors() async throws {
            try await withApp(listJSON: Self.oneValidItem) { app in
                let responses: [(String, Fetched)] = [
                    ("page /", try await app.get("/")),
                    ("page /pets", try await app.get("/pets")),
                    ("static", try await app.get("/static/css/site.css")),
                    ("api", try await app.get("/api/v1/announcements")),
                    ("404", try await app.get("/no/such/page")),
                    ("405", try await app.get("/pets", method: "POST")),
                    ("400", try await app.get("/pets?lat=abc&lng=1")),
                    ("metrics", try await app.get("/metrics")),
                ]
                for (what, response) in responses {
                    expectSecurityHeaders(response, what)
                }
            }
        }

        @Test(arguments: ["POST", "PUT", "DELETE", "PATCH"])
        func other_methods_on_a_page_route_get_405_with_allow_get_head(method: String) async throws {
            try await withApp { app in
                let response = try await app.get("/pets", method: method)

                #expect(response.status == 405)
                #expect(response.header("Allow") == "GET, HEAD")
                #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            }
        }

        @Test func the_servers_own_answers_get_a_request_id_a_log_line_and_a_metric() async throws {
            let logs = LogCapture()
            try await withApp(logs: logs) { app in
                let post = try await app.get("/pets", method: "POST", headers: ["X-Request-Id": "client-post-1"])
                let malformed = try await app.get("/pets/%FF%FE")
                #expect(post.status == 405)
                #expect(post.header("X-Request-Id") == "client-post-1")
                #expect(malformed.status == 400)
                let generated = try #require(malformed.header("X-Request-Id"))
                #expect(generated.count == 16 && generated.allSatisfy(\.isHexDigit))
                expectSecurityHeaders(malformed, "server-made 400")
                #expect(logs.lines.contains { $0.contains("request_id=client-post-1") && $0.contains("status=405") && $0.contains("method=POST") })
                #expect(
                    logs.lines.contains { $0.contains("request_id=\(generated)") && $0.contains("status=400") && $0.contains("path=/pets/%FF%FE") }
                )
                let metrics = try await app.get("/metrics").text
                #expect(metrics.contains(#"petspot_http_requests_total{route="server",status="405"} 1"#))
                #expect(metrics.contains(#"petspot_http_requests_total{route="server",status="400"} 1"#))
            }
        }

        @Test func an_unknown_path_is_a_404_html_page_with_navigation() async throws {
            try await withApp { app in
                let response = try await app.get("/definitely/not/here")

                #expect(response.status == 404)
                #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(response.text.contains("<!DOCTYPE html") || response.text.contains("<!doctype html"))
                #expect(response.text.contains("href=\"/pets\""))
                #expect(response.text.contains("data-testid=\"error-message\""))
            }
        }

        @Test func a_sane_client_request_id_is_echoed() async throws {
            try await withApp { app in
                let response = try await app.get("/healthz", headers: ["X-Request-Id": "client-abc_123.4"])

                #expect(response.header("X-Request-Id") == "client-abc_123.4")
            }
        }

        @Test(arguments: [
            String(repeating: "a", count: 200),
            "has spaces in it",
            "<script>alert(1)</script>",
            "quote\"id",
        ])
        func an_insane_client_request_id_is_replaced_by_a_generated_one(sent: String) async throws {
            try await withApp { app in
                let response = try await app.get("/healthz", headers: ["X-Request-Id": sent])

                let id = try #require(response.header("X-Request-Id"))
                #expect(id != sent)
                #expect(id.count == 16)
                #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            }
        }

        @Test func a_request_id_with_a_folded_newline_is_replaced() async throws {
            try await withApp { app in
                let reply = await rawSend(
                    port: app.app.port,
                    text: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "X-Request-Id: abc\r\n injected: yes\r\nConnection: close\r\n\r\n"
                )

                #expect(!reply.contains("injected"))
            }
        }

        @Test func without_a_client_id_each_response_gets_a_distinct_generated_one() async throws {
            try await withApp { app in
                let first = try #require(try await app.get("/healthz").header("X-Request-Id"))
                let second = try #require(try await app.get("/healthz").header("X-Request-Id"))

                #expect(first.count == 16)
                #expect(first != second)
            }
        }

        @Test func healthz_is_200_and_not_cached() async throws {
            try await withApp { app in
                let response = try await app.get("/healthz")

                #expect(response.status == 200)
                #expect(response.header("Cache-Control") == "no-store")
            }
        }

        @Test func readyz_is_200_when_the_upstream_answers() async throws {
            try await withApp { app in
                let response = try await app.get("/readyz")

                #expect(response.status == 200)
            }
        }

        @Test func readyz_is_503_when_the_upstream_is_down() async throws {
            let dead = try StubUpstream.start()
            let deadURL = URL(string: dead.baseURL)
            await dead.stop()

            try await withApp(configure: { $0.upstreamURL = deadURL }) { app in
                let response = try await app.get("/readyz")

                #expect(response.status == 503)
                #expect(response.header("Cache-Control") == "no-store")
            }
        }

        @Test func metrics_count_requests_latency_upstream_calls_cache_lookups_and_skipped_items() async throws {
            let list = try fixture("api-mixed-list.json")
            try await withApp(listJSON: list) { app in
                _ = try await app.get("/pets")
                _ = try await app.get("/pets")
                _ = try await app.get("/nowhere")

                let metrics = try await app.get("/metrics")

                #expect(metrics.status == 200)
                #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
                let text = metrics.text
                #expect(text.contains(#"petspot_http_requests_total{route="list",status="200"} 2"#))
                #expect(text.contains(#"petspot_http_requests_total{route="not_found",status="404"} 1"#))
                #expect(text.contains("# TYPE petspot_http_request_duration_seconds histogram"))
                #expect(text.contains(#"petspot_http_request_duration_seconds_bucket{route="list",le="+Inf"} 2"#))
                #expect(text.contains(#"petspot_http_request_duration_seconds_count{route="list"} 2"#))
                #expect(text.contains(#"petspot_upstream_calls_total{endpoint="list"} 1"#))
                #expect(text.contains(#"petspot_cache_lookups_total{result="miss"} 1"#))
                #expect(text.contains(#"petspot_cache_lookups_total{result="hit"} 1"#))
                #expect(text.contains(#"petspot_items_skipped_total{reason="invalidSpecies"} 1"#))
                #expect(text.contains(#"petspot_items_skipped_total{reason="invalidLastSeenDate"} 1"#))
                #expect(text.contains(#"petspot_items_skipped_total{reason="invalidPlace"} 1"#))
                #expect(text.contains(#"petspot_items_skipped_total{reason="updatedBeforeCreated"} 1"#))
                #expect(text.contains(#"petspot_items_skipped_total{reason="duplicateId"} 1"#))
                #expect(text.contains("petspot_connections_refused_total 0"))

                // The snapshot's age is read at scrape time, on the app's clock.
                app.clock.advance(by: .seconds(7))
                let later = try await app.get("/metrics").text
                #expect(later.contains("petspot_snapshot_age_seconds 7.0"))
            }
        }

        @Test func metrics_count_upstream_failures_by_reason() async throws {
            try await withApp { app in
                app.stub.setFault(.status(500))
                _ = try await app.get("/api/v1/announcements")

                let text = try await app.get("/metrics").text

                #expect(text.contains(#"petspot_upstream_failures_total{endpoint="list",reason="bad_status"} 1"#))
                #expect(text.contains(#"petspot_http_requests_total{route="api_list",status="502"} 1"#))
            }
        }
    }
}

/// The integration suites of this area run one test at a time: each starts a real server, a stub
/// upstream and an HTTP client pool, and on a loaded 2-core machine dozens at once push 1-second
/// upstream timeouts and raw-socket reads over their limits, which would test the machine.
@Suite(.serialized) enum ServerIntegration {}
