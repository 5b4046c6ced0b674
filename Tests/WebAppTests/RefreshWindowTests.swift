import Foundation
import TestSupport
import Testing
import WebApp

/// Past its TTL the held list answers at once while the next is fetched and indexed (`--refresh-window`,
/// docs/performance.md "Steady speed"): no page waits for a refresh it did not ask for. The other suites
/// run with a window of 0 (`withApp`), where the page after the TTL waits and shows the new list.
@Suite("List refresh window")
struct RefreshWindowTests {
    private static let alpha = PageJSON.list([PageJSON.item("a1", name: "Alpha")])
    private static let bravo = PageJSON.list([PageJSON.item("b2", name: "Bravo")])

    /// The list page, asked until it shows `name` (at most 250 times: a bound on a hang, not a speed check).
    private func page(showing name: String, in app: TestApp) async throws -> Bool {
        for _ in 0..<250 {
            if try await app.get("/pets").text.contains(name) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func past_the_ttl_the_held_list_answers_while_the_next_is_fetched_then_the_new_one_does() async throws {
        try await withApp(
            listJSON: Self.alpha,
            configure: {
                $0.cacheTTLSeconds = 0.2
                $0.refreshWindowSeconds = 15
            }
        ) { app in
            #expect(try await app.get("/pets").text.contains("Alpha"))
            app.stub.setETagsEnabled(false)
            app.stub.setList(Self.bravo)
            // The refresh's call is answered late (within the upstream time-out): a page that waited for it
            // would show Bravo.
            app.stub.setFault(.slow(.milliseconds(600)))
            app.clock.advance(by: .milliseconds(300))

            let during = try await app.get("/pets")
            let api = try await app.get("/api/v1/announcements")

            #expect(during.status == 200)
            #expect(during.text.contains("Alpha") && !during.text.contains("Bravo"))
            #expect(!during.text.contains(#"data-testid="stale-notice""#))
            #expect(api.header("X-PetSpot-Stale") == nil)
            #expect(try await page(showing: "Bravo", in: app))
            // One call refreshed the list for every page asked meanwhile.
            #expect(app.stub.requestCount(path: "/api/v1/announcements") == 2)
        }
    }

    @Test func past_the_window_the_page_waits_for_the_refresh_and_a_failing_upstream_is_marked_stale() async throws {
        try await withApp(
            listJSON: Self.alpha,
            configure: {
                $0.cacheTTLSeconds = 0.2
                $0.refreshWindowSeconds = 1
                $0.staleMaxSeconds = 30
            }
        ) { app in
            _ = try await app.get("/pets")
            app.stub.setFault(.status(500))
            app.clock.advance(by: .seconds(2))

            let page = try await app.get("/pets")

            #expect(page.status == 200)
            #expect(page.text.contains(#"data-testid="stale-notice""#))
            #expect(page.text.contains("Alpha"))
        }
    }
}
