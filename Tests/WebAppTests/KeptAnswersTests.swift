import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Synchronization
import TestSupport
import Testing

@testable import WebApp

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The warm path: answers the application marks reusable are given again by the server (through
/// MicroHTTP's `PreparedResponses` hook) for the same request target, without the handler, each
/// with its own request id.
@Suite("Kept answers")
struct KeptAnswersTests {
    /// A server whose handler counts its calls and keeps what it answers for targets under `/kept`.
    final class Harness: Sendable {
        final class Counts: Sendable {
            let calls = Atomic<Int>(0)
            let hits = Mutex<[ResponseCache.Hit]>([])
            let generated = Atomic<Int>(0)
        }
        let counts = Counts()
        let keptAnswers: ResponseCache
        /// The clock kept answers expire by; tests move it instead of waiting.
        let clock = ManualClock()

        init(maxBytes: Int = 1 << 20, threadSlots: Int = 8, languages: LanguageNegotiation? = nil) {
            let counts = self.counts
            keptAnswers = ResponseCache(
                maxBytes: maxBytes,
                threadSlots: threadSlots,
                now: clock.reading,
                languages: languages,
                requestID: { header in header ?? "generated-\(counts.generated.add(1, ordering: .relaxed).newValue)" },
                onHit: { hit in counts.hits.withLock { $0.append(hit) } }
            )
        }

        func run(keepFor lifetime: Duration = .seconds(60), _ body: (URL) async throws -> Void) async throws {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let counts = self.counts
            let keptAnswers = self.keptAnswers
            let clock = self.clock
            let server = HTTPServer(
                configuration: ServerConfiguration(),
                logger: logger,
                preparedResponses: keptAnswers,
                waiting: { request in
                    let call = counts.calls.add(1, ordering: .sequentiallyConsistent).newValue
                    var response = Response.text(
                        "body of \(request.path)?\(request.query.items.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))"
                    )
                    response.headers[.eTag] = "\"tag-\(request.path.count)\""
                    response.headers[HTTPField.Name("X-Kind")!] = "kept"
                    if request.path.hasPrefix("/kept") {
                        keptAnswers.keep(response, for: request, route: "kept_route", until: clock.now + lifetime)
                    }
                    response.headers[HTTPField.Name("X-Call")!] = String(call)
                    return response
                }
            )
            try server.start()
            do {
                try await body(try #require(URL(string: "http://127.0.0.1:\(server.port)")))
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }

        var callCount: Int { counts.calls.load(ordering: .sequentiallyConsistent) }
    }

    @Test func a_kept_answer_is_given_again_without_the_handler_each_time_with_its_own_request_id() async throws {
        let harness = Harness()
        try await harness.run { base in
            let first = try await fetch(try url(base, "/kept/page?b=2&a=1"))
            #expect(harness.callCount == 1)
            var again: [TestSupport.Fetched] = []
            for _ in 0..<3 { again.append(try await fetch(try url(base, "/kept/page?b=2&a=1"))) }
            #expect(harness.callCount == 1)
            for answer in again {
                #expect(answer.status == 200)
                #expect(answer.body == first.body)
                #expect(answer.header("ETag") == first.header("ETag"))
                #expect(answer.header("Content-Type") == first.header("Content-Type"))
                #expect(answer.header("X-Kind") == "kept")
                // Kept as it was before the per-request header was added.
                #expect(answer.header("X-Call") == nil)
            }
            let ids = Set(again.compactMap { $0.header("X-Request-Id") })
            #expect(ids.count == 3)
            let hits = harness.counts.hits.withLock { $0 }
            #expect(hits.count == 3)
            #expect(hits.allSatisfy { $0.route == "kept_route" && $0.status == 200 && $0.path == "/kept/page" && $0.method == .get })

            let echoed = try await fetch(try url(base, "/kept/page?b=2&a=1"), headers: ["X-Request-Id": "from-client-7"])
            #expect(echoed.header("X-Request-Id") == "from-client-7")
        }
    }

    @Test func if_none_match_gets_a_bodiless_304_and_head_gets_the_headers_only() async throws {
        let harness = Harness()
        try await harness.run { base in
            let first = try await fetch(try url(base, "/kept/tagged"))
            let tag = try #require(first.header("ETag"))
            let notModified = try await fetch(try url(base, "/kept/tagged"), headers: ["If-None-Match": "\"other\", \(tag)"])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == tag)
            #expect(notModified.header("Content-Type") == nil)
            let otherTag = try await fetch(try url(base, "/kept/tagged"), headers: ["If-None-Match": "\"other\""])
            #expect(otherTag.status == 200)
            #expect(otherTag.body == first.body)
            let head = try await fetch(try url(base, "/kept/tagged"), method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(first.body.count))
            #expect(harness.callCount == 1)
            #expect(harness.counts.hits.withLock { $0.map(\.status) } == [304, 200, 200])
        }
    }

    /// The replies in `raw` (pipelined on one connection): status and header lines of each.
    private static func replies(in raw: String) -> [(status: Int, headers: [(name: String, value: String)])] {
        raw.components(separatedBy: "HTTP/1.1 ").dropFirst().map { reply in
            let head = reply.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
            let headers = head.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return (Int(head[0].prefix(3)) ?? 0, headers)
        }
    }

    /// With a slot per server thread (8 ≥ the 4 threads), with fewer (1: one thread reuses its
    /// responses, the others make one per answer), and with none.
    @Test(arguments: [8, 1, 0])
    func repeats_on_many_connections_each_get_one_request_id_of_their_own_and_every_kept_header_once(threadSlots: Int) async throws {
        let harness = Harness(threadSlots: threadSlots)
        try await harness.run { base in
            // Arrange: kept on its first answer, with its ETag.
            let first = try await fetch(try url(base, "/kept/many"))
            let tag = try #require(first.header("ETag"))
            let port = try #require(base.port)
            // Act: 8 connections at once, each pipelining 30 repeats (every third conditional, so
            // one thread answers the same entry with the 200 and the 304 in turn), the last closing.
            let perConnection = 30
            let raws = await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let requests = (0..<perConnection).map { index in
                            "GET /kept/many HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + (index % 3 == 2 ? "If-None-Match: \(tag)\r\n" : "")
                                + (index == perConnection - 1 ? "Connection: close\r\n" : "") + "\r\n"
                        }
                        return await rawSend(port: port, text: requests.joined())
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            // Assert: every reply is whole, carries each kept header once and an id no other reply has.
            var ids: [String] = []
            for raw in raws {
                let replies = Self.replies(in: raw)
                #expect(replies.count == perConnection)
                for (index, reply) in replies.enumerated() {
                    let names = reply.headers.map(\.name)
                    #expect(reply.status == (index % 3 == 2 ? 304 : 200))
                    #expect(names.filter { $0 == "x-request-id" }.count == 1)
                    #expect(names.filter { $0 == "x-kind" }.count == 1)
                    #expect(names.filter { $0 == "etag" }.count == 1)
                    #expect(names.filter { $0 == "content-type" }.count == (reply.status == 200 ? 1 : 0))
                    ids += reply.headers.filter { $0.name == "x-request-id" }.map(\.value)
                }
            }
            #expect(ids.count == 8 * perConnection)
            #expect(Set(ids).count == ids.count)
            #expect(harness.callCount == 1)
            // The hits were reported with the ids the replies carried.
            let reported = Set(harness.counts.hits.withLock { $0.map(\.requestID) })
            #expect(Set(ids).isSubset(of: reported))
        }
    }

    @Test func another_target_goes_to_the_handler() async throws {
        let harness = Harness()
        try await harness.run { base in
            _ = try await fetch(try url(base, "/kept/x?a=1"))
            _ = try await fetch(try url(base, "/kept/x?a=1"))
            #expect(harness.callCount == 1)
            for other in ["/kept/x?a=2", "/kept/x?a=1&b", "/kept/x?a=1&b=", "/kept/x", "/kept/y?a=1", "/kept/x?a=1&a=1"] {
                let before = harness.callCount
                let answer = try await fetch(try url(base, other))
                #expect(harness.callCount == before + 1, "\(other) was answered from another target's kept answer")
                #expect(answer.text.hasPrefix("body of "))
            }
            // Each of those is kept under its own target now.
            let before = harness.callCount
            _ = try await fetch(try url(base, "/kept/x?a=1&b"))
            #expect(harness.callCount == before)
        }
    }

    /// The key the handler's `Request` gives `keep` and the one the server's lookup reads hold the
    /// same target bytes and the same language: the repeat in one language is kept, another is not.
    @Test func a_kept_answer_is_given_only_to_visitors_whose_accept_language_chooses_its_language() async throws {
        let harness = Harness(languages: LanguageNegotiation(languages: ["en", "pl"]))
        try await harness.run { base in
            let target = try url(base, "/kept/lang?x=%20&y&z=")
            _ = try await fetch(target, headers: ["Accept-Language": "pl-PL, en;q=0.5"])
            let polish = try await fetch(target, headers: ["Accept-Language": "pl"])
            #expect(harness.callCount == 1)
            #expect(polish.status == 200)
            _ = try await fetch(target, headers: ["Accept-Language": "en-GB"])
            #expect(harness.callCount == 2)
            // No header chooses the default (English): the English answer is kept for it.
            _ = try await fetch(target)
            _ = try await fetch(target, headers: ["Accept-Language": "de, *;q=0.1"])
            #expect(harness.callCount == 2)
        }
    }

    @Test func an_answer_past_its_time_goes_back_to_the_handler() async throws {
        let harness = Harness()
        try await harness.run(keepFor: .milliseconds(300)) { base in
            _ = try await fetch(try url(base, "/kept/short"))
            #expect(harness.keptAnswers.size.entries == 1)
            harness.clock.advance(by: .milliseconds(299))
            _ = try await fetch(try url(base, "/kept/short"))
            #expect(harness.callCount == 1)
            harness.clock.advance(by: .milliseconds(2))
            // Past its 300 ms: the handler answers again.
            _ = try await fetch(try url(base, "/kept/short"))
            #expect(harness.callCount == 2)
        }
    }

    @Test func kept_bytes_stay_under_the_bound() {
        let harness = Harness(maxBytes: 64 * 1024)
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        for index in 0..<200 {
            let response = Response(status: 200, headers: [.contentType: "text/plain"], body: body)
            harness.keptAnswers.keep(
                response,
                target: Array("/p/\(index)".utf8),
                language: 0,
                route: "r",
                path: "/p/\(index)",
                until: harness.clock.now + .seconds(60)
            )
        }
        let size = harness.keptAnswers.size
        #expect(size.bytes <= 64 * 1024)
        #expect(size.entries > 0)
        // Only 200s are kept, and only while they are good.
        harness.keptAnswers.keep(
            Response(status: 404),
            target: Array("/missing".utf8),
            language: 0,
            route: "r",
            path: "/missing",
            until: harness.clock.now + .seconds(60)
        )
        harness.keptAnswers.keep(
            Response(status: 200),
            target: Array("/old".utf8),
            language: 0,
            route: "r",
            path: "/old",
            until: harness.clock.now - .seconds(1)
        )
        #expect(harness.keptAnswers.size.entries == size.entries)
    }
}
