import Foundation
import HTTPTypes
import TestSupport
import Testing
import WebApp

/// Rendered pages are reused only for the same URL over the same upstream data.
@Suite("Rendered page reuse")
struct RenderedPagesTests {
    @Test func the_same_url_over_the_same_data_gives_the_same_bytes_and_new_data_a_new_page() async throws {
        let first = PageJSON.list([PageJSON.item("a1", name: "Alpha")])
        try await withApp(listJSON: first, configure: { $0.cacheTTLSeconds = 0.2 }) { app in
            let one = try await app.get("/pets")
            let two = try await app.get("/pets")
            #expect(one.body == two.body)
            #expect(withoutQuickMark(one.header("ETag")) == two.header("ETag"))
            #expect(one.text.contains("Alpha"))

            app.stub.setETagsEnabled(false)
            app.stub.setList(PageJSON.list([PageJSON.item("b2", name: "Bravo")]))
            app.clock.advance(by: .milliseconds(350))
            let after = try await app.get("/pets")
            #expect(after.text.contains("Bravo"))
            #expect(!after.text.contains("Alpha"))
            #expect(after.header("ETag") != one.header("ETag"))
        }
    }

    @Test func different_queries_over_the_same_data_are_different_pages() async throws {
        let list = PageJSON.list([
            PageJSON.item("m1", name: "Missy", overrides: ["status": "MISSING"]),
            PageJSON.item("f1", name: "Foundy", overrides: ["status": "FOUND"]),
        ])
        try await withApp(listJSON: list) { app in
            let missing = try await app.get("/pets?status=missing").text
            let found = try await app.get("/pets?status=found").text
            let both = try await app.get("/pets").text
            #expect(missing.contains("Missy") && !missing.contains("Foundy"))
            #expect(found.contains("Foundy") && !found.contains("Missy"))
            #expect(both.contains("Missy") && both.contains("Foundy"))
        }
    }
}
