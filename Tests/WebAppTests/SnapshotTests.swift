import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain
import TestSupport
import Testing

@testable import WebApp

/// Every visitor is served from one upstream snapshot (docs/scaling.md), fetched at most once per TTL.
@Suite("One snapshot for every visitor")
struct SnapshotTests {
    static let listPath = "/api/v1/announcements"

    /// `count` valid items spread over Warsaw, newest first by number.
    static func spreadList(_ count: Int) -> String {
        let rows: [[String: Any]] = (1...count).map { (index: Int) -> [String: Any] in
            let latitude: Double = 52.0 + Double(index % 40) * 0.01
            let longitude: Double = 21.0 + Double(index / 40) * 0.01
            let overrides: [String: Any] = [
                "locationLatitude": latitude,
                "locationLongitude": longitude,
                "createdAt": String(format: "2025-11-10T10:%02d:%02d.000Z", index / 60, index % 60),
                "updatedAt": "2025-11-10T12:00:00.000Z",
            ]
            return PageJSON.item(String(format: "snap-%03d", index), name: "Pet \(index)", overrides: overrides)
        }
        return PageJSON.list(rows)
    }

    @Test func two_hundred_distinct_locations_cost_one_upstream_list_call() async throws {
        try await withApp(listJSON: Self.spreadList(60)) { app in
            let paths = (0..<200).map { index in
                String(format: "/pets?lat=%.4f&lng=%.4f", 51.9 + Double(index) * 0.0013, 20.9 + Double(index % 17) * 0.007)
            }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for chunk in stride(from: 0, to: paths.count, by: 25) {
                    group.addTask {
                        var ok = 0
                        for path in paths[chunk..<min(chunk + 25, paths.count)] where try await app.get(path).status == 200 { ok += 1 }
                        return ok
                    }
                }
                var ok = 0
                for try await count in group { ok += count }
                #expect(ok == 200)
            }
            #expect(app.stub.requestCount(path: Self.listPath) == 1)
            #expect(app.stub.requestCount() == 1)
        }
    }

    @Test func details_of_an_id_in_the_snapshot_make_no_upstream_call() async throws {
        try await withApp(listJSON: Self.spreadList(5)) { app in
            _ = try await app.get("/pets")
            app.stub.resetCounts()

            let page = try await app.get("/pets/snap-003")
            let json = try await app.get("/api/v1/announcements/snap-004")

            #expect(page.status == 200)
            #expect(page.text.contains("Pet 3"))
            #expect(json.status == 200)
            #expect(app.stub.requestCount() == 0)
        }
    }

    @Test func an_id_the_upstream_does_not_know_is_remembered_for_the_ttl() async throws {
        try await withApp(listJSON: Self.spreadList(3)) { app in
            _ = try await app.get("/pets")
            app.stub.resetCounts()

            let first = try await app.get("/pets/no-such-pet")
            let second = try await app.get("/pets/no-such-pet")
            let api = try await app.get("/api/v1/announcements/no-such-pet")

            let statuses: [Int] = [first.status, second.status, api.status]
            #expect(statuses == [404, 404, 404])
            #expect(app.stub.requestCount(path: "\(Self.listPath)/no-such-pet") == 1)
        }
    }

    @Test func details_calls_in_flight_are_bounded() async throws {
        try await withApp(
            listJSON: Self.spreadList(3),
            configure: {
                $0.maxDetailsCalls = 2
                $0.upstreamTimeoutSeconds = 5
            }
        ) { app in
            _ = try await app.get("/pets")
            app.stub.resetCounts()
            app.stub.setFault(.slow(.milliseconds(800)))

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 { group.addTask { try await app.get("/pets/unknown-\(index)").status } }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }

            #expect(app.stub.requestCount() == 2)
            #expect(statuses.filter { $0 == 503 }.count == 6)
        }
    }

    @Test func after_the_ttl_the_next_request_sees_new_data() async throws {
        // The app's clock moves only when the test moves it: "within" and "after" the TTL are exact.
        try await withApp(listJSON: Self.spreadList(2), configure: { $0.cacheTTLSeconds = 5 }) { app in
            let before = try await app.get("/pets?lat=52.1&lng=21.0&range=100")
            #expect(before.text.contains("Pet 2"))
            // Asked for again and again: given by the server itself (`ResponseCache`'s hook) until the TTL ends.
            for _ in 0..<3 { _ = try await app.get("/pets?lat=52.1&lng=21.0&range=100") }
            let kept = try #require(Self.gauge("petspot_kept_answers_entries", in: try await app.get("/metrics").text))
            #expect(kept >= 1)

            app.stub.setList(PageJSON.list([PageJSON.item("fresh", name: "Newcomer")]))
            let within = try await app.get("/pets?lat=52.1&lng=21.0&range=100")
            #expect(within.text.contains("Pet 2"))

            app.clock.advance(by: .milliseconds(4_999))
            let justBefore = try await app.get("/pets?lat=52.1&lng=21.0&range=100")
            #expect(justBefore.text.contains("Pet 2"))
            app.clock.advance(by: .milliseconds(2))
            let after = try await app.get("/pets?lat=52.1&lng=21.0&range=100")
            #expect(after.text.contains("Newcomer"))
            #expect(!after.text.contains("Pet 2"))
        }
    }

    @Test func a_304_from_the_upstream_keeps_the_snapshot_and_its_pages() async throws {
        try await withApp(listJSON: Self.spreadList(4), configure: { $0.cacheTTLSeconds = 1 }) { app in
            app.stub.setETagsEnabled(true)
            let first = try await app.get("/pets")

            app.clock.advance(by: .milliseconds(1_200))
            let second = try await app.get("/pets")

            #expect(app.stub.requestCount(path: Self.listPath) == 2)
            #expect(app.stub.lastRequestHeaders?[.ifNoneMatch] != nil)
            #expect(second.status == 200)
            #expect(second.body == first.body)
            let metrics = try await app.get("/metrics").text
            #expect(metrics.contains(#"petspot_cache_lookups_total{result="revalidated"} 1"#))
            #expect(metrics.contains("petspot_snapshots_total 1"))
        }
    }

    @Test func ten_thousand_distinct_urls_keep_the_page_cache_under_its_byte_cap() async throws {
        try await withApp(listJSON: Self.spreadList(40), configure: { $0.pageCacheMegabytes = 1 }) { app in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in stride(from: worker, to: 10_000, by: 8) {
                            let path = String(format: "/pets?lat=%.4f&lng=21.2", 50.0 + Double(index) * 0.0003)
                            // Twice: a page is kept the second time it is made.
                            _ = try await app.get(path)
                            _ = try await app.get(path)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let metrics = try await app.get("/metrics").text
            let bytes = try #require(Self.gauge("petspot_page_cache_bytes", in: metrics))
            let entries = try #require(Self.gauge("petspot_page_cache_entries", in: metrics))
            #expect(bytes <= 1024 * 1024)
            #expect(bytes > 512 * 1024)
            #expect(entries > 50 && entries < 10_000)
        }
    }

    @Test func a_page_asked_for_again_and_again_is_given_by_the_server_with_a_request_id_log_line_and_metric_each() async throws {
        let logs = LogCapture()
        try await withApp(listJSON: Self.spreadList(5), logs: logs) { app in
            let path = "/pets?lat=52.02&lng=21.0&status=missing"
            var answers: [TestSupport.Fetched] = []
            for _ in 0..<6 { answers.append(try await app.get(path)) }
            let kept = try #require(Self.gauge("petspot_kept_answers_entries", in: try await app.get("/metrics").text))
            #expect(kept == 1)
            #expect(
                answers.allSatisfy {
                    $0.status == 200 && $0.body == answers[0].body
                        && withoutQuickMark($0.header("ETag")) == withoutQuickMark(answers[0].header("ETag"))
                }
            )
            #expect(
                answers.allSatisfy { $0.header("Content-Security-Policy") != nil && $0.header("Cache-Control") == answers[0].header("Cache-Control") }
            )
            let ids = answers.compactMap { $0.header("X-Request-Id") }
            #expect(Set(ids).count == 6)
            for id in ids {
                #expect(logs.lines.contains { $0.contains("request_id=\(id)") && $0.contains("status=200") && $0.contains("path=/pets") })
            }
            let metrics = try await app.get("/metrics").text
            #expect(metrics.contains(#"petspot_http_requests_total{route="list",status="200"} 6"#))
            let notModified = try await app.get(path, headers: ["If-None-Match": try #require(answers[0].header("ETag"))])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(app.stub.requestCount(path: Self.listPath) == 1)
        }
    }

    @Test func an_upstream_body_over_the_limit_is_a_502_page_with_a_log_line_naming_the_setting() async throws {
        let logs = LogCapture()
        try await withApp(configure: { $0.upstreamMaxBodyMegabytes = 1 }, logs: logs) { app in
            app.stub.setFault(.hugeBody(1_500_000))

            let page = try await app.get("/pets")
            let api = try await app.get("/api/v1/announcements")

            #expect(page.status == 502)
            #expect(page.text.contains("Unable to load data. Please try again later."))
            #expect(api.status == 502)
            let line = try #require(logs.lines.first { $0.contains("over the size limit") })
            #expect(line.contains("--upstream-max-body-mb / PETSPOT_UPSTREAM_MAX_BODY_MB"))
            #expect(line.contains("limit_bytes=1048576"))
            let metrics = try await app.get("/metrics").text
            #expect(metrics.contains(#"petspot_upstream_failures_total{endpoint="list",reason="body_too_large"} 2"#))
        }
    }

    /// The demo upstream filters like the backend (`distance < range`). For items of the demo
    /// data set, pick visitor positions (4-decimal, as the location script sends) whose distance
    /// to the item is within a metre of a whole number of kilometres, and ask both the upstream
    /// and us with that range: the valid items each lists must be the same.
    @Test func located_lists_equal_the_upstreams_own_range_answer_around_the_boundary() async throws {
        try await withApp(configure: { $0.upstreamURL = nil }) { app in
            let ours = try JSONSerialization.jsonObject(with: Data(try await app.get(Self.listPath).body)) as? [String: Any]
            let rows = try #require(ours?["data"] as? [[String: Any]])
            let valid = Set(rows.compactMap { $0["id"] as? String })
            var compared = 0
            for row in rows.prefix(8) {
                let latitude = try #require(row["locationLatitude"] as? Double)
                let longitude = try #require(row["locationLongitude"] as? Double)
                let place = try #require(Coordinate(latitude: latitude, longitude: longitude))
                for rangeKm in [1, 5, 15] {
                    let origin = try #require(Self.origin(atKm: Double(rangeKm), from: place))
                    let query = "?lat=\(URLText.fourDecimals(origin.latitude))&lng=\(URLText.fourDecimals(origin.longitude))&range=\(rangeKm)"
                    let upstream = try await fetch(try url(app.app.upstreamURL, Self.listPath + query))
                    let theirs = try JSONSerialization.jsonObject(with: Data(upstream.body)) as? [String: Any]
                    let theirIDs = Set((theirs?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }).intersection(valid)
                    let mine = try JSONSerialization.jsonObject(with: Data(try await app.get(Self.listPath + query).body)) as? [String: Any]
                    let myIDs = Set((mine?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                    #expect(myIDs == theirIDs, "range \(rangeKm) around \(row["id"] ?? "")")
                    compared += 1
                }
            }
            #expect(compared == 24)
        }
    }

    /// A 4-decimal position whose distance to `place` is within 1 m of `km`, searched on the
    /// 4-decimal grid south-west of `place`.
    static func origin(atKm km: Double, from place: Coordinate) -> Coordinate? {
        let step = 0.0001
        let latSpan = km / 111.2
        var best: (Coordinate, Double)?
        for i in 0...40 {
            let lat = ((place.latitude - latSpan + Double(i - 20) * step) * 10_000).rounded() / 10_000
            for j in 0...200 {
                let lng = ((place.longitude - Double(j) * step) * 10_000).rounded() / 10_000
                guard let origin = Coordinate(latitude: lat, longitude: lng) else { continue }
                let miss = abs(origin.distanceKm(to: place) - km)
                if miss < (best?.1 ?? .infinity) { best = (origin, miss) }
            }
        }
        guard let best, best.1 < 0.001 else { return nil }
        return best.0
    }

    /// The value of an unlabelled gauge line `name value` in Prometheus text.
    static func gauge(_ name: String, in text: String) -> Int? {
        // swift-prometheus writes gauges as floating-point numbers (`200.0`).
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) }
    }
}

/// Normalized page keys: parameter order, unknown parameters and digits beyond 4 decimals make no new page.
@Suite("Normalized page keys")
struct NormalizedPageKeyTests {
    @Test func equivalent_urls_share_one_kept_page_and_different_ones_do_not() async throws {
        try await withApp(listJSON: SnapshotTests.spreadList(30)) { app in
            let first = try await app.get("/pets?lat=52.2297&lng=21.0122&status=missing")
            let once = try #require(SnapshotTests.gauge("petspot_page_cache_entries", in: try await app.get("/metrics").text))
            #expect(once == 0)  // made once: not kept (most located pages are asked for once)
            _ = try await app.get("/pets?lat=52.2297&lng=21.0122&status=missing")
            let entries = try #require(SnapshotTests.gauge("petspot_page_cache_entries", in: try await app.get("/metrics").text))
            #expect(entries == 1)

            let reordered = try await app.get("/pets?status=missing&utm_source=x&lng=21.01220&lat=52.22971")
            let sameEntries = try #require(SnapshotTests.gauge("petspot_page_cache_entries", in: try await app.get("/metrics").text))
            #expect(reordered.body == first.body)
            #expect(reordered.header("ETag") == withoutQuickMark(first.header("ETag")))
            #expect(sameEntries == entries)

            let unlocated = try await app.get("/pets?status=missing")
            _ = try await app.get("/pets?status=missing")
            let moreEntries = try #require(SnapshotTests.gauge("petspot_page_cache_entries", in: try await app.get("/metrics").text))
            #expect(unlocated.body != first.body)
            #expect(moreEntries == entries + 1)
        }
    }
}

/// Located pages are joined from a kept shell and kept card fragments, so a cold located page renders fast.
@Suite("Page shells and card fragments")
struct PageShellTests {
    @Test func two_visitors_get_pages_with_their_own_coordinates_distances_and_counts() async throws {
        try await withApp(listJSON: SnapshotTests.spreadList(60)) { app in
            let here = try await app.get("/pets?lat=52.1&lng=21.0&range=30&species=dog")
            let there = try await app.get("/pets?lat=52.3&lng=21.01&range=5&species=dog")
            for (page, lat, lng) in [(here.text, "52.1", "21"), (there.text, "52.3", "21.01")] {
                #expect(!page.contains("zzS"))
                let links = PageHTML.detailLinks(page)
                #expect(!links.isEmpty)
                for link in links {
                    let query = PageHTML.query(of: link)
                    #expect(query["lat"] == lat && query["lng"] == lng)
                }
                #expect(page.contains(#"name="lat" value="\#(lat)""#))
                #expect(PageHTML.testIDCount("distance", in: page) == links.count)
            }
            #expect(here.text.contains("within 30 km of you"))
            #expect(there.text.contains("within 5 km of you"))
            #expect(PageHTML.petIDs(here.text).count > PageHTML.petIDs(there.text).count)
        }
    }

    @Test func a_card_whose_own_text_holds_the_marker_characters_is_still_right() async throws {
        let odd = PageJSON.item("odd", name: "Odd \u{E000}name\u{E001}")
        try await withApp(listJSON: PageJSON.list([odd, PageJSON.item("plain", name: "Plain")])) { app in
            let page = try await app.get("/pets?lat=52.2297&lng=21.0122").text
            #expect(page.contains("Odd \u{E000}name\u{E001}"))
            #expect(PageHTML.detailLinks(page).sorted() == ["/pets/odd?lat=52.2297&lng=21.0122", "/pets/plain?lat=52.2297&lng=21.0122"])
            #expect(PageHTML.testIDCount("distance", in: page) == 2)
        }
    }

    @Test func split_finds_every_marker_and_joining_puts_values_in_their_places() {
        let rendered = Array("<a href=\"/pets?lat=\(PageShells.marker(0))&amp;lng=\(PageShells.marker(1))\">\(PageShells.marker(4))</a>zzS".utf8)
        let pieces = PageShells.split(rendered)
        #expect(pieces.slots == [0, 1, 4])
        let shells = PageShells(maxBytes: 1 << 20)
        let values = [Array("52.1".utf8), Array("21".utf8), [], [], Array("<li>card</li>".utf8)]
        let page = shells.page(key: "k", render: { rendered }, valueBytes: 0) { slot, output in output += values[slot] }
        #expect(String(decoding: page, as: UTF8.self) == "<a href=\"/pets?lat=52.1&amp;lng=21\"><li>card</li></a>zzS")
    }
}
