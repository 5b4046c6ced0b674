import Foundation
import HTTPTypes
import Logging
import PetDomain
import Synchronization
import TestSupport
import Testing

@testable import PetAPIClient

/// A fake upstream for the gateway: answers each request with what the test's closure returns
/// (or throws, as the live transport does for transport-level failures) and records every request.
final class FakeTransport: Sendable {
    private let answer: @Sendable (UpstreamRequest) throws(UpstreamFailure) -> UpstreamResponse
    private let seen = Mutex<[UpstreamRequest]>([])

    /// A transport answering with `answer`.
    init(_ answer: @escaping @Sendable (UpstreamRequest) throws(UpstreamFailure) -> UpstreamResponse) {
        self.answer = answer
    }

    /// Every request so far, in order.
    var requests: [UpstreamRequest] { seen.withLock { $0 } }

    /// The requests for `path`.
    func requests(for path: String) -> [UpstreamRequest] { requests.filter { $0.pathAndQuery == path } }

    /// The transport to hand to the gateway; like the live one, it refuses a body over the request's cap.
    var transport: UpstreamTransport {
        UpstreamTransport(get: { request throws(UpstreamFailure) in
            self.seen.withLock { $0.append(request) }
            let response = try self.answer(request)
            guard response.body.count <= request.maxBodyBytes else {
                throw .bodyTooLarge(limitBytes: request.maxBodyBytes, upstreamRequestID: response.headers[.upstreamRequestID])
            }
            return response
        })
    }
}

/// Specifications of the gateway's failure classification and its TTLs, on a fake transport and a
/// manual clock (docs/upstream.md §4 and §5). Nothing here waits on real time.
@Suite struct AnnouncementGatewayTests {
    static let listPath = "/api/v1/announcements"
    static let emptyList = UpstreamResponse(
        status: 200,
        headers: [.contentType: "application/json", .eTag: "\"list-1\""],
        body: Array(#"{"data":[]}"#.utf8)
    )
    let clock = ManualClock()

    private func gateway(_ fake: FakeTransport, settings: GatewaySettings = GatewaySettings()) -> AnnouncementGateway {
        AnnouncementGateway(
            transport: fake.transport,
            settings: settings,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            now: clock.reading
        )
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> UpstreamResponse {
        UpstreamResponse(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .upstreamRequestID: "up-1"],
            body: Array(text.utf8)
        )
    }

    /// The failure `snapshot` throws when the upstream answers the list with `response`.
    private func listFailure(_ response: UpstreamResponse, settings: GatewaySettings = GatewaySettings()) async -> UpstreamFailure? {
        let gateway = gateway(FakeTransport { _ in response }, settings: settings)
        do {
            _ = try await gateway.snapshot(requestID: "req-1")
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Failure classification

    @Test func a_list_answer_other_than_200_is_badStatus_with_the_upstream_request_id() async {
        let failure = await listFailure(Self.json("{}", status: 503))
        #expect(failure == .badStatus(503, upstreamRequestID: "up-1"))
        #expect(failure?.visitorStatus == 502)
    }

    @Test func a_list_that_is_not_json_is_a_malformed_body() async {
        let html = UpstreamResponse(status: 200, headers: [.contentType: "text/html"], body: Array("<html></html>".utf8))
        let failure = await listFailure(html)
        guard case .malformedBody(let detail, _) = failure else {
            Issue.record("expected malformedBody, got \(String(describing: failure))")
            return
        }
        #expect(detail.contains("text/html"))
    }

    @Test(arguments: [#"{"data":"#, #"{"data":null}"#, "not json at all", #"{"data":{}}"#])
    func a_list_body_that_is_not_a_list_is_a_malformed_body(body: String) async {
        let failure = await listFailure(Self.json(body))
        #expect(failure?.metricLabel == "malformed_body")
        #expect(failure?.upstreamRequestID == "up-1")
    }

    @Test func a_list_body_over_maxJSONBytes_is_bodyTooLarge_naming_the_limit() async {
        var settings = GatewaySettings()
        settings.maxJSONBytes = 16
        let fake = FakeTransport { _ in Self.json(#"{"data":[], "padding": "more than sixteen bytes"}"#) }
        let gateway = gateway(fake, settings: settings)

        await #expect(throws: UpstreamFailure.bodyTooLarge(limitBytes: 16, upstreamRequestID: "up-1")) {
            try await gateway.snapshot(requestID: "req-1")
        }
        #expect(fake.requests.map(\.maxBodyBytes) == [16])
    }

    @Test(arguments: [UpstreamFailure.timeout, .unreachable(detail: "connection refused")])
    func a_transport_failure_reaches_the_caller_unchanged(failure: UpstreamFailure) async {
        var settings = GatewaySettings()
        settings.timeout = .milliseconds(1_500)
        let fake = FakeTransport { _ throws(UpstreamFailure) in throw failure }
        let gateway = gateway(fake, settings: settings)

        await #expect(throws: failure) { try await gateway.snapshot(requestID: "req-1") }
        #expect(fake.requests.map(\.timeout) == [.milliseconds(1_500)])
        #expect(fake.requests.first?.headers[HTTPField.Name("X-Request-Id")!] == "req-1")
    }

    @Test func a_details_404_is_notFound_and_remembered_for_the_ttl() async throws {
        let detailsPath = Self.listPath + "/missing-1"
        let fake = FakeTransport { request in
            request.pathAndQuery == Self.listPath ? Self.emptyList : Self.json(#"{"error":"not found"}"#, status: 404)
        }
        let gateway = gateway(fake)

        await #expect(throws: UpstreamFailure.notFound) { try await gateway.announcement(id: "missing-1", requestID: "req-1") }
        clock.advance(by: .seconds(29))
        await #expect(throws: UpstreamFailure.notFound) { try await gateway.announcement(id: "missing-1", requestID: "req-2") }
        #expect(fake.requests(for: detailsPath).count == 1)
        #expect(fake.requests(for: Self.listPath).count == 1)

        clock.advance(by: .seconds(1))
        await #expect(throws: UpstreamFailure.notFound) { try await gateway.announcement(id: "missing-1", requestID: "req-3") }
        #expect(fake.requests(for: detailsPath).count == 2)
    }

    // MARK: - The snapshot's TTL and revalidation

    @Test func the_snapshot_is_fetched_once_per_ttl_and_revalidated_with_its_etag() async throws {
        let fake = FakeTransport { request in
            request.headers[.ifNoneMatch] == "\"list-1\""
                ? UpstreamResponse(status: 304, headers: [:], body: [])
                : Self.emptyList
        }
        let gateway = gateway(fake)

        let first = try await gateway.snapshot(requestID: "req-1")
        clock.advance(by: .seconds(29))
        _ = try await gateway.snapshot(requestID: "req-2")
        #expect(gateway.freshSnapshot() != nil)
        #expect(fake.requests.count == 1)

        clock.advance(by: .seconds(1))
        #expect(gateway.freshSnapshot() == nil)
        let revalidated = try await gateway.snapshot(requestID: "req-3")

        #expect(fake.requests.count == 2)
        #expect(fake.requests.last?.headers[.ifNoneMatch] == "\"list-1\"")
        #expect(revalidated.value.generation == first.value.generation)
        #expect(!revalidated.isStale)
    }

    @Test func whenReplaced_is_told_each_new_snapshots_generation_and_nothing_on_a_304() async throws {
        let changed = Switch()
        let fake = FakeTransport { request in
            if changed.isOn { return Self.json(#"{"data":[]}"#) }
            return request.headers[.ifNoneMatch] == "\"list-1\"" ? UpstreamResponse(status: 304, headers: [:], body: []) : Self.emptyList
        }
        let gateway = gateway(fake)
        let told = Mutex<[Int]>([])
        gateway.whenReplaced { generation in told.withLock { $0.append(generation) } }

        let first = try await gateway.snapshot(requestID: "req-1")
        #expect(told.withLock { $0 } == [first.value.generation])
        clock.advance(by: .seconds(30))
        _ = try await gateway.snapshot(requestID: "req-2")  // 304: the same snapshot
        #expect(told.withLock { $0 } == [first.value.generation])

        changed.turnOn()
        clock.advance(by: .seconds(30))
        let second = try await gateway.snapshot(requestID: "req-3")
        #expect(second.value.generation > first.value.generation)
        #expect(told.withLock { $0 } == [first.value.generation, second.value.generation])
    }

    @Test func reunited_pets_are_put_apart_and_a_changed_set_fetches_the_whole_list_instead_of_a_304() async throws {
        func item(_ id: String) -> String {
            #"{"id":"\#(id)","petName":"Pet \#(id)","species":"DOG","sex":"MALE","locationLatitude":52.2,"locationLongitude":21.0,"#
                + #""lastSeenDate":"2025-11-17","photoUrl":"/images/\#(id).jpg","status":"MISSING","#
                + #""createdAt":"2025-11-18T10:00:00.000Z","updatedAt":"2025-11-18T10:00:00.000Z"}"#
        }
        let list = UpstreamResponse(
            status: 200,
            headers: [.contentType: "application/json", .eTag: "\"two\""],
            body: Array(#"{"data":[\#(item("home-1")),\#(item("lost-2"))]}"#.utf8)
        )
        let fake = FakeTransport { request in
            request.headers[.ifNoneMatch] == "\"two\"" ? UpstreamResponse(status: 304, headers: [:], body: []) : list
        }
        let gateway = gateway(fake)
        let reunited = Mutex(ReunitedPets.none)
        gateway.readReunitedPets { reunited.withLock { $0 } }

        let first = try await gateway.snapshot(requestID: "req-1").value
        #expect(first.index.items.map(\.id) == ["home-1", "lost-2"])
        #expect(first.reunited.count == 0)

        // The same set: a 304 keeps the snapshot.
        clock.advance(by: .seconds(30))
        #expect(try await gateway.snapshot(requestID: "req-2").value.generation == first.generation)
        #expect(fake.requests.last?.headers[.ifNoneMatch] == "\"two\"")

        // A pet at home: the next fetch asks without If-None-Match (a 304 would keep the old split) and splits.
        let at = Date(timeIntervalSince1970: 1_764_000_000)
        reunited.withLock { $0 = ReunitedPets(at: ["home-1": at], version: 1) }
        let split = try await gateway.snapshot(requestID: "req-3", refreshing: true).value
        #expect(fake.requests.last?.headers[.ifNoneMatch] == nil)
        #expect(split.generation > first.generation)
        #expect(split.index.items.map(\.id) == ["lost-2"])
        #expect(split.reunited.items.map(\.id) == ["home-1"])
        #expect(split.announcement(id: "home-1")?.reunitedAt == at)
        #expect(split.index.announcement(id: "home-1") == nil, "every list reads the index: the pet is out of them all")
        #expect(try await gateway.announcement(id: "home-1", requestID: "req-4").value.reunitedAt == at)

        // Unchanged again: back to revalidating.
        clock.advance(by: .seconds(30))
        #expect(try await gateway.snapshot(requestID: "req-5").value.generation == split.generation)
        #expect(fake.requests.last?.headers[.ifNoneMatch] == "\"two\"")
    }

    @Test func a_failing_list_within_staleMax_serves_the_old_snapshot_marked_stale() async throws {
        let failing = Switch()
        let fake = FakeTransport { _ throws(UpstreamFailure) in
            if failing.isOn { throw .timeout }
            return Self.emptyList
        }
        var settings = GatewaySettings()
        settings.staleMax = .seconds(120)
        let gateway = gateway(fake, settings: settings)
        let first = try await gateway.snapshot(requestID: "req-1")

        failing.turnOn()
        clock.advance(by: .seconds(120))
        let stale = try await gateway.snapshot(requestID: "req-2")
        #expect(stale.staleBecause == .timeout)
        #expect(stale.value.generation == first.value.generation)

        clock.advance(by: .seconds(1))
        await #expect(throws: UpstreamFailure.timeout) { try await gateway.snapshot(requestID: "req-3") }
        #expect(gateway.answeredRecently(within: .seconds(121)))
        #expect(!gateway.answeredRecently(within: .seconds(120)))
    }

    // MARK: - A changed list (docs/performance.md "Steady speed")

    /// The list answers `items`, with an ETag of their count.
    private static func list(_ items: [String]) -> UpstreamResponse {
        UpstreamResponse(
            status: 200,
            headers: [.contentType: "application/json", .eTag: "\"\(items.count)\""],
            body: SnapshotReuseTests.body(items)
        )
    }

    @Test func a_changed_list_keeps_the_unchanged_items_and_is_prepared_before_it_is_held() async throws {
        let changed = Switch()
        let before = ["a", "b", "c"].map { SnapshotReuseTests.item($0) }
        let after = [
            SnapshotReuseTests.item("a"), SnapshotReuseTests.item("b", name: "Rex"), SnapshotReuseTests.item("c"),
            SnapshotReuseTests.item("d"),
        ]
        let fake = FakeTransport { _ in Self.list(changed.isOn ? after : before) }
        let gateway = gateway(fake)
        let events = Mutex<[String]>([])
        gateway.whenPreparing { snapshot in
            events.withLock { $0.append("prepare \(snapshot.generation)") }
            return { events.withLock { $0.append("install \(snapshot.generation)") } }
        }
        gateway.whenReplaced { generation in events.withLock { $0.append("replaced \(generation)") } }

        let first = try await gateway.snapshot(requestID: "req-1").value
        #expect(first.predecessor == nil && first.carried.isEmpty)
        changed.turnOn()
        clock.advance(by: .seconds(30))
        let second = try await gateway.snapshot(requestID: "req-2").value

        #expect(second.predecessor == first.generation)
        let ids = second.index.items.map(\.id)
        #expect(Set(ids) == ["a", "b", "c", "d"])
        // Each carried position names the same pet in the first snapshot; the changed and the new one are made anew.
        var kept: Set<String> = []
        for (position, source) in second.carried.enumerated() where source >= 0 {
            #expect(first.index.items[Int(source)].id == ids[position])
            kept.insert(ids[position])
        }
        #expect(kept == ["a", "c"])
        #expect(second.announcement(id: "b")?.petName == "Rex")
        let generations = [first.generation, second.generation]
        #expect(events.withLock { $0 } == generations.flatMap { ["prepare \($0)", "install \($0)", "replaced \($0)"] })
    }

    @Test func within_the_refresh_window_the_held_snapshot_answers_at_once_while_the_next_is_fetched() async throws {
        let changed = Switch()
        let fake = FakeTransport { _ in Self.list(changed.isOn ? ["a", "b"].map { SnapshotReuseTests.item($0) } : [SnapshotReuseTests.item("a")]) }
        var settings = GatewaySettings()
        settings.refreshWindow = .seconds(5)
        let gateway = gateway(fake, settings: settings)
        #expect(gateway.heldSnapshot(requestID: "req-0") == nil, "nothing held yet: the request must wait")
        let first = try await gateway.snapshot(requestID: "req-1").value
        #expect(gateway.heldSnapshot(requestID: "req-2")?.value.generation == first.generation)
        #expect(fake.requests.count == 1)

        changed.turnOn()
        clock.advance(by: .seconds(32))
        // Past the TTL, within the window: the held one, and one fetch started in the background.
        #expect(gateway.heldSnapshot(requestID: "req-3")?.value.generation == first.generation)
        // A request that waits for the list meanwhile is answered from the held one too.
        #expect(try await gateway.snapshot(requestID: "req-4").value.generation == first.generation)
        // The background fetch lands (its transport answers at once; bounded, so a lost fetch fails, not hangs).
        var next = first
        for _ in 0..<1_000 where next.generation == first.generation {
            try await Task.sleep(for: .milliseconds(5))
            next = try #require(gateway.heldSnapshot(requestID: "req-5")).value
        }
        #expect(next.generation > first.generation)
        #expect(next.index.items.count == 2)
        #expect(fake.requests.count == 2)

        // Past the TTL and the window: the request waits for the upstream.
        clock.advance(by: .seconds(36))
        #expect(gateway.heldSnapshot(requestID: "req-6") == nil)
    }
}
