import Foundation
import HTTPTypes
import Logging
import Synchronization
import TestSupport
import Testing

@testable import MicroHTTP

/// The `PreparedResponses` hook: what it sees of a request, what it sends, and the libmicrohttpd
/// version check that decides whether native responses are reused (docs/transport.md).
@Suite("Prepared responses")
struct PreparedResponsesTests {
    /// A hook that records the target of every request it is asked about and answers those it has
    /// a prepared response for; the handler prepares one for every target under `/p`.
    final class Stub: PreparedResponses {
        let seen = Mutex<[String]>([])
        /// `Request.rawTarget` of every request the handler answered.
        let handled = Mutex<[String]>([])
        let prepared = Mutex<[String: PreparedResponse]>([:])
        let generated = Atomic<Int>(0)

        func answer(_ request: RawRequest) -> RawRequest.Sent? {
            guard let target = request.withTarget({ span in String(decoding: (0..<span.count).map { span[$0] }, as: UTF8.self) }) else { return nil }
            seen.withLock { $0.append(target) }
            guard let response = prepared.withLock({ $0[target] }) else { return nil }
            let id = request.header(.xRequestID) ?? "hook-\(generated.add(1, ordering: .relaxed).newValue)"
            let notModified = response.etag != nil && request.header(.ifNoneMatch) == response.etag
            return request.send(response, notModified: notModified, requestID: id)
        }
    }

    /// Runs a server with `stub` as its hook; the handler records `Request.rawTarget` and prepares
    /// its answer (made as if libmicrohttpd were `libraryVersion`) for targets under `/p`.
    private static func run(_ stub: Stub, libraryVersion: String = "0.9.75", _ body: (Int) async throws -> Void) async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = HTTPServer(
            configuration: ServerConfiguration(),
            logger: logger,
            preparedResponses: stub,
            handler: { request in
                stub.handled.withLock { $0.append(request.rawTarget) }
                var response = Response.text("body of \(request.rawTarget)")
                response.headers[.eTag] = "\"t\""
                if request.path.hasPrefix("/p") {
                    let prepared = PreparedResponse(response, threadSlots: 4, libraryVersion: libraryVersion)
                    stub.prepared.withLock { $0[request.rawTarget] = prepared }
                }
                return .now(response)
            }
        )
        try server.start()
        do {
            try await body(server.port)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func the_target_the_hook_reads_is_the_request_raw_target_byte_for_byte() async throws {
        let stub = Stub()
        let targets = ["/a", "/a?x=1&y", "/a?x=1&y=", "/a?x=%20&x=+", "/caf%C3%A9?q=%E2%82%AC&z=%26", "/a?=v&b=c=d"]
        try await Self.run(stub) { port in
            for target in targets {
                _ = await rawSend(port: port, text: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
        }
        let seen = stub.seen.withLock { $0 }
        let made = stub.handled.withLock { $0 }
        #expect(seen.count == targets.count)
        #expect(seen == made)
        // As sent, except that libmicrohttpd turns a query's `+` into a space before any unescaping.
        #expect(Array(seen.prefix(5)) == ["/a", "/a?x=1&y", "/a?x=1&y=", "/a?x=%20&x= ", "/caf%C3%A9?q=%E2%82%AC&z=%26"])
    }

    @Test func a_prepared_answer_is_sent_again_without_the_handler_with_the_request_id_and_304_the_hook_chose() async throws {
        let stub = Stub()
        try await Self.run(stub) { port in
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let first = try await fetch(try url(base, "/p/1?a=1"))
            let again = try await fetch(try url(base, "/p/1?a=1"), headers: ["X-Request-Id": "client-1"])
            let conditional = try await fetch(try url(base, "/p/1?a=1"), headers: ["If-None-Match": "\"t\""])
            #expect(stub.handled.withLock { $0.count } == 1)
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.header("X-Request-Id") == "client-1")
            #expect(conditional.status == 304 && conditional.body.isEmpty)
            #expect(conditional.header("X-Request-Id")?.hasPrefix("hook-") == true)
        }
    }

    @Test func native_responses_are_reused_only_on_a_verified_libmicrohttpd_version() {
        #expect(PreparedResponse.slotCount(8, libraryVersion: "0.9.75") == 8)
        #expect(PreparedResponse.slotCount(8, libraryVersion: "0.9.77") == 0)
        #expect(PreparedResponse.slotCount(8, libraryVersion: "1.0.0") == 0)
        #expect(PreparedResponse(Response.text("x"), threadSlots: 4, libraryVersion: "0.9.75").slotCount == 4)
        #expect(PreparedResponse(Response.text("x"), threadSlots: 4, libraryVersion: "0.9.77").slotCount == 0)
        // The library this test links: Debian bookworm's, the version the reuse was verified on.
        #expect(PreparedResponse.libraryVersion == "0.9.75")
        #expect(PreparedResponse.reusesNativeResponses)
    }

    /// On an unverified version every answer gets a native response of its own: still whole, each
    /// with its own request id, on many connections at once.
    @Test func on_an_unverified_version_prepared_answers_are_still_sent_whole_with_their_own_request_ids() async throws {
        let stub = Stub()
        try await Self.run(stub, libraryVersion: "0.9.99") { port in
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let first = try await fetch(try url(base, "/p/unverified"))
            let answers = try await withThrowingTaskGroup(of: TestSupport.Fetched.self) { group in
                for _ in 0..<16 { group.addTask { try await fetch(try url(base, "/p/unverified")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(stub.handled.withLock { $0.count } == 1)
            #expect(answers.allSatisfy { $0.status == 200 && $0.body == first.body && $0.header("ETag") == "\"t\"" })
            #expect(Set(answers.compactMap { $0.header("X-Request-Id") }).count == 16)
        }
    }
}
