import Foundation
import TestSupport
import Testing
import WebApp

/// A changed list keeps what it can of the snapshot before it (docs/performance.md "Steady speed"): the pages
/// made from the carried items must be the pages a server that only ever saw the new list makes.
@Suite("A changed list: what is carried")
struct SnapshotCarryTests {
    /// One fixed day for both apps, so the report ages and the "last seen" texts cannot differ between them.
    static let day = Date(timeIntervalSince1970: 1_764_590_400)  // 2025-12-01T12:00:00Z

    static let before = PageJSON.list([
        PageJSON.item("a", name: "Alpha", overrides: ["locationLatitude": 52.231, "locationLongitude": 21.011]),
        PageJSON.item("b", name: "Bravo", overrides: ["locationLatitude": 52.240, "locationLongitude": 21.020]),
        PageJSON.item("c", name: "Charlie", overrides: ["locationLatitude": 52.260, "locationLongitude": 21.050]),
    ])
    /// `b` changed (its name), `d` is new, `a` and `c` are byte for byte as before.
    static let after = PageJSON.list([
        PageJSON.item("a", name: "Alpha", overrides: ["locationLatitude": 52.231, "locationLongitude": 21.011]),
        PageJSON.item("b", name: "Rex", overrides: ["locationLatitude": 52.240, "locationLongitude": 21.020]),
        PageJSON.item("c", name: "Charlie", overrides: ["locationLatitude": 52.260, "locationLongitude": 21.050]),
        PageJSON.item("d", name: "Delta", overrides: ["locationLatitude": 52.235, "locationLongitude": 21.015]),
    ])

    static let located = "/pets?lat=52.23&lng=21.01"

    /// The pet cards of a list page, in page order.
    static func cards(_ html: String) -> [Substring] {
        var found: [Substring] = []
        var rest = html[...]
        while let start = rest.range(of: #"<article class="pet-card""#), let end = rest[start.upperBound...].range(of: "</article>") {
            found.append(rest[start.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    @Test func a_changed_list_reuses_the_unchanged_items_and_renders_what_a_fresh_server_renders() async throws {
        let logs = LogCapture()
        let carried = try await withApp(listJSON: Self.before, logs: logs, startDate: Self.day) { app in
            let first = try await app.get(Self.located)
            #expect(first.status == 200)
            #expect(Self.cards(first.text).count == 3)
            #expect(first.text.contains("Bravo"))

            app.stub.setList(Self.after)
            app.clock.advance(by: .seconds(31))
            let second = try await app.get(Self.located)
            #expect(second.status == 200)
            #expect(second.text.contains("Rex"))
            #expect(!second.text.contains("Bravo"))
            #expect(second.text.contains("Delta"))
            return Self.cards(second.text).map(String.init)
        }
        let indexed = logs.lines.filter { $0.contains("indexed a new list") }
        #expect(indexed.count == 2)
        // The first list has nothing to reuse; the second reuses a and c, and decodes b and d.
        #expect(indexed.first?.contains("reused=0") == true)
        #expect(indexed.last?.contains("items=4") == true)
        #expect(indexed.last?.contains("reused=2") == true)

        let fresh = try await withApp(listJSON: Self.after, startDate: Self.day) { app in
            app.clock.advance(by: .seconds(31))
            return Self.cards(try await app.get(Self.located).text).map(String.init)
        }
        #expect(carried.count == 4)
        #expect(carried == fresh)
    }
}
