import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain
import Synchronization
import TestSupport
import Testing

@testable import WebApp

/// What is kept per snapshot goes when a new snapshot replaces it, and the whole API list keeps its
/// plain form only while clients ask for it (docs/performance.md "Memory").
@Suite("Per-snapshot data: lifetime")
struct SnapshotLifetimeTests {
    /// A clock that moves only when told.
    final class Clock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    /// Release checks the list scheduled, run when the test says.
    final class Checks: Sendable {
        private let pending = Mutex<[@Sendable () -> Void]>([])
        var count: Int { pending.withLock { $0.count } }
        func add(_ check: @escaping @Sendable () -> Void) { pending.withLock { $0.append(check) } }
        func runAll() {
            for check in pending.withLock({ list in
                defer { list = [] }
                return list
            }) { check() }
        }
    }

    /// A JSON answer of `count` items as the API makes it: its ETag from its body.
    static func listAnswer(_ count: Int) -> Response {
        var text = #"{"data":["#
        for n in 0..<count { text += (n == 0 ? "" : ",") + #"{"id":"item-\#(n)","description":"pet number \#(n) seen in the park"}"# }
        text += "]}"
        var response = Response.json(Array(text.utf8))
        response.headers[.eTag] = ConditionalGet.etag(for: response.body)
        return response
    }

    /// Waits (bounded) for the background compression thread to give `list` its forms.
    static func waitForForms(_ list: WholeListBody) async throws {
        for _ in 0..<3_000 where !list.hasForms { try await Task.sleep(for: .milliseconds(10)) }
        try #require(list.hasForms)
    }

    @Test func the_plain_list_goes_when_idle_and_is_made_again_with_the_same_bytes_and_tag() async throws {
        let clock = Clock()
        let checks = Checks()
        let list = WholeListBody(keepPlainFor: .seconds(10), now: { clock.now }, schedule: { _, check in checks.add(check) })
        let made = Mutex(0)
        let make = { () -> Response in
            made.withLock { $0 += 1 }
            return Self.listAnswer(200)
        }
        let plain = list.response(generation: 1, acceptEncoding: nil, make: make)
        #expect(plain.headers[.contentEncoding] == nil)
        try await Self.waitForForms(list)
        #expect(checks.count == 1)

        // A client that takes br gets the kept form as its representation, with its own tag.
        let br = list.response(generation: 1, acceptEncoding: "gzip, br", make: make)
        #expect(br.headers[.contentEncoding] == "br")
        #expect(br.headers[.eTag] == String(plain.headers[.eTag]!.dropLast()) + "-br\"")
        #expect(br.body.count < plain.body.count)
        #expect(br.headers[.vary] == "Accept-Encoding")

        // Not idle long enough: kept.
        clock.advance(by: .seconds(9))
        checks.runAll()
        #expect(list.keptBytes > plain.body.count)
        #expect(checks.count == 1)  // checked again later
        clock.advance(by: .seconds(1))
        checks.runAll()
        #expect(list.keptBytes < plain.body.count)
        #expect(checks.count == 0)

        // Compressed forms still answer without the plain form being made again.
        let gzip = list.response(generation: 1, acceptEncoding: "gzip", make: make)
        #expect(gzip.headers[.contentEncoding] == "gzip")
        #expect(made.withLock { $0 } == 1)

        // A client that takes no coding gets the same bytes and tag, made again and kept again.
        let again = list.response(generation: 1, acceptEncoding: nil, make: make)
        #expect(made.withLock { $0 } == 2)
        #expect(again.body == plain.body)
        #expect(again.headers[.eTag] == plain.headers[.eTag])
        #expect(again.headers[.contentEncoding] == nil)
        #expect(list.keptBytes > plain.body.count)
        _ = list.response(generation: 1, acceptEncoding: "identity", make: make)
        #expect(made.withLock { $0 } == 2)
        #expect(checks.count == 1)
    }

    @Test func a_list_too_small_to_compress_keeps_its_plain_form() async throws {
        let clock = Clock()
        let list = WholeListBody(keepPlainFor: .seconds(1), now: { clock.now }, schedule: { _, _ in })
        let small = list.response(generation: 1, acceptEncoding: "br") { Self.listAnswer(1) }
        #expect(small.body.count < BodyCompression.policy.minimumBytes)
        clock.advance(by: .seconds(60))
        #expect(!list.releasePlainIfIdle())
        #expect(list.keptBytes == small.body.count)
    }

    @Test func a_replaced_snapshots_list_is_let_go_and_not_kept_again() async throws {
        let list = WholeListBody(keepPlainFor: .seconds(10), schedule: { _, _ in })
        let first = list.response(generation: 1, acceptEncoding: nil) { Self.listAnswer(100) }
        #expect(list.keptBytes >= first.body.count)

        list.retire(below: 2)
        #expect(list.keptBytes == 0)
        // A request still on the old snapshot gets its list, which is not kept.
        let late = list.response(generation: 1, acceptEncoding: nil) { Self.listAnswer(100) }
        #expect(late.body == first.body)
        #expect(list.keptBytes == 0)

        let second = list.response(generation: 2, acceptEncoding: nil) { Self.listAnswer(120) }
        #expect(list.keptBytes >= second.body.count)
        // An older generation's request never replaces the newer kept list.
        _ = list.response(generation: 1, acceptEncoding: nil) { Self.listAnswer(100) }
        let kept = list.response(generation: 2, acceptEncoding: nil) { Self.listAnswer(1) }
        #expect(kept.body == second.body)
    }

    @Test func a_replaced_snapshots_feed_entries_are_let_go_and_not_kept_again() throws {
        let outcome = try AnnouncementDecoder.decodeList(
            bytes: Array(PageJSON.list([PageJSON.item("a", name: "Alpha"), PageJSON.item("b", name: "Beta")]).utf8),
            places: nil
        )
        let items = outcome.items
        try #require(items.count == 2)
        let entries = FeedEntries(baseURL: "https://petspot.example")
        let make: (Announcement, SharedMarkup) -> FeedEntries.Fragment = { pet, markup in
            let values = FeedEntries.Values(
                id: "tag:petspot.example,2026:\(pet.id)",
                title: pet.displayName,
                link: "https://petspot.example/pets/\(pet.id)",
                photo: nil,
                created: "2026-01-01T00:00:00Z",
                summary: [FeedEntries.Text("seen", isShared: false)],
                point: nil
            )
            return FeedEntries.Fragment(values, itemPart: pet.id, markup: markup)
        }
        _ = entries.fragments(generation: 1, language: .en, all: items, positions: [0, 1], make: make)
        _ = entries.fragments(generation: 1, language: .pl, all: items, positions: [0], make: make)
        #expect(entries.keptGenerations == [.en: 1, .pl: 1])

        entries.retire(below: 2)
        #expect(entries.keptGenerations.isEmpty)
        let late = entries.fragments(generation: 1, language: .en, all: items, positions: [1], make: make)
        #expect(late.addresses.count == 1)
        #expect(entries.keptGenerations.isEmpty)

        _ = entries.fragments(generation: 2, language: .en, all: items, positions: [0], make: make)
        #expect(entries.keptGenerations == [.en: 2])
    }
}
