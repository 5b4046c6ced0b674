import Foundation
import HTTPTypes
import TestSupport
import Testing

@Suite("App smoke")
struct SmokeTests {
    @Test func healthz_answers_200_with_security_headers_and_a_request_id() async throws {
        try await withApp { app in
            let response = try await app.get("/healthz")
            #expect(response.status == 200)
            #expect(response.text == "ok\n")
            let csp = try #require(response.header("Content-Security-Policy"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") != nil)
            #expect(response.header("Permissions-Policy")?.contains("geolocation=(self)") == true)
            #expect(response.header("X-Frame-Options") == "DENY")
            #expect((response.header("X-Request-Id") ?? "").count == 16)
        }
    }
}
