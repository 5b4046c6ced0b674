import DemoUpstream
import Foundation
import TestSupport
import Testing

/// The demo upstream's test hooks (`demo-upstream --test-hooks`, docs/demo-upstream-writes.md "Test hooks"),
/// which scripts/scale-out.sh uses to count what reached the backend and to hold a create in flight.
@Suite struct DemoTestHooksTests {
    private func counts(_ client: DemoWriteClient) async throws -> [String: Any] {
        try DemoWriteClient.object(try await client.get("/__demo/counts"))
    }

    @Test func without_hooks_the_demo_has_no_test_paths() async throws {
        try await DemoWriteClient.with { client in
            let counts = try await client.get("/__demo/counts")
            let delay = try await client.get("/__demo/create-delay?ms=10")
            #expect(counts.status == 404)
            #expect(delay.status == 404)
        }
    }

    @Test func hooks_count_creates_and_photo_checks_wrong_codes_included() async throws {
        try await DemoWriteClient.with(DemoBackend(hooks: DemoTestHooks())) { client in
            let made = try await client.createValid()
            #expect(try await client.createReport([("species", nil)]).status == 400)
            #expect(try await client.upload(id: made.id, password: "000000", bytes: DemoWriteClient.png()).status == 403)
            #expect(try await client.upload(id: made.id, password: made.password, bytes: DemoWriteClient.png()).status == 201)
            let seen = try await counts(client)
            #expect(seen["createRequests"] as? Int == 2)
            #expect(seen["created"] as? Int == 1)
            #expect(seen["photoRequests"] as? Int == 2)
        }
    }

    @Test func a_create_delay_holds_creates_in_flight_and_is_bounded() async throws {
        try await DemoWriteClient.with(DemoBackend(hooks: DemoTestHooks())) { client in
            #expect(try await client.get("/__demo/create-delay?ms=x").status == 400)
            let clamped = try DemoWriteClient.object(try await client.get("/__demo/create-delay?ms=999999"))
            #expect(clamped["createDelayMs"] as? Int == DemoTestHooks.maxCreateDelayMilliseconds)
            // Long enough that a loaded machine still sees the create held (the test waits it out once).
            _ = try await client.get("/__demo/create-delay?ms=5000")

            async let made = client.createValid()
            // Bounded wait until the create has arrived; it is then held, not yet answered.
            var held: [String: Any] = [:]
            for _ in 0..<100 {
                held = try await counts(client)
                if held["createRequests"] as? Int == 1 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(held["createRequests"] as? Int == 1)
            #expect(held["created"] as? Int == 0)
            _ = try await made
            #expect(try await counts(client)["created"] as? Int == 1)
        }
    }
}
