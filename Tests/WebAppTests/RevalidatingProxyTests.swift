import Caching
import Foundation
import HTTPTypes
import PetAPIClient
import Synchronization
import TestSupport
import Testing

@testable import WebApp

/// An origin that answers as the test sets it, counting calls and keeping the validators each call
/// sent; with `hold` set, every call waits until the test opens it (no wall-clock waiting).
private final class ScriptedOrigin: Sendable {
    enum Answer: Sendable {
        case ok(String, etag: String)
        case notModified
        case down
        case notFound
    }

    private struct State {
        var answer: Answer = .down
        var validators: [PhotoValidators?] = []
        var hold = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var calls: Int { state.withLock { $0.validators.count } }
    var lastValidators: PhotoValidators? { state.withLock { $0.validators.last ?? nil } }

    func answer(_ answer: Answer, hold: Bool = false) {
        state.withLock {
            $0.answer = answer
            $0.hold = hold
        }
    }

    /// Lets every held call go on.
    func open() {
        let waiting = state.withLock { state in
            state.hold = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    func fetch(_ validators: PhotoValidators?) async throws(UpstreamFailure) -> UpstreamResponse {
        let answer = state.withLock { state in
            state.validators.append(validators)
            return state.answer
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goOn = state.withLock { state -> Bool in
                if !state.hold { return true }
                state.waiting.append(continuation)
                return false
            }
            if goOn { continuation.resume() }
        }
        switch answer {
        case .ok(let body, let etag): return UpstreamResponse(status: .ok, headers: [.eTag: etag], body: Array(body.utf8))
        case .notModified: return UpstreamResponse(status: .notModified, body: [])
        case .down: throw .unreachable(detail: "scripted")
        case .notFound: throw .notFound
        }
    }
}

/// The generic proxy behind the photo and tile routes, on its own with a scripted origin and the
/// manual clock: fresh hits, revalidation, single flight, stale on error, remembered misses.
@Suite struct RevalidatingProxyTests {
    private let origin = ScriptedOrigin()
    private let clock = ManualClock()

    /// A proxy with a TTL of 60 s and a retry after failure of 10 s; misses remembered when `remembersMisses`.
    private func proxy(remembersMisses: Bool = false) -> RevalidatingProxy<String> {
        let days = DayClock(startDate: Date(timeIntervalSince1970: 1_750_000_000), now: clock.reading)
        let origin = origin
        let rules = RevalidatingProxy<String>.Rules(
            metric: "test_proxy_total",
            ttlSeconds: 60,
            retryAfterFailureSeconds: 10,
            cacheKey: { KeptResourceKey(path: $0, variantName: "test") },
            statusKey: { remembersMisses ? .status(of: $0) : nil },
            fetch: { _, validators, _ throws(UpstreamFailure) in try await origin.fetch(validators) },
            transform: { _, response, _ in
                .entry(
                    KeptResource(
                        kind: .image,
                        bytes: response.body,
                        contentType: "text/plain",
                        width: nil,
                        height: nil,
                        etag: ConditionalGet.etag(for: response.body),
                        validators: PhotoValidators(headers: response.headers),
                        checkedAt: days.date
                    )
                )
            }
        )
        return RevalidatingProxy(cache: KeptResourceCache(maxBytes: 1 << 20, disk: nil), rules: rules, metrics: Metrics(), clock: days)
    }

    /// The body of an answer, "missing", or the failure's status.
    private func text(_ outcome: RevalidatingProxy<String>.Outcome?) -> String? {
        switch outcome {
        case .entry(let entry, _): return String(decoding: entry.bytes, as: UTF8.self)
        case .missing: return "missing"
        case .failed(let status): return "failed \(status.code)"
        case nil: return nil
        }
    }

    @Test func a_fresh_answer_is_given_from_memory_without_asking_the_origin() async {
        let proxy = proxy()
        origin.answer(.ok("tile one", etag: #""v1""#))
        #expect(text(proxy.inMemory("a")) == nil)

        #expect(text(await proxy.outcome("a", requestID: "r")) == "tile one")
        clock.advance(by: .seconds(59))
        #expect(text(proxy.inMemory("a")) == "tile one")
        #expect(text(await proxy.outcome("a", requestID: "r")) == "tile one")

        #expect(origin.calls == 1)
        #expect(origin.lastValidators == nil)
    }

    @Test func a_stale_answer_is_revalidated_and_a_304_keeps_its_bytes() async {
        let proxy = proxy()
        origin.answer(.ok("photo", etag: #""v1""#))
        _ = await proxy.outcome("a", requestID: "r")
        clock.advance(by: .seconds(61))
        #expect(text(proxy.inMemory("a")) == nil)

        origin.answer(.notModified)
        #expect(text(await proxy.outcome("a", requestID: "r")) == "photo")

        #expect(origin.calls == 2)
        #expect(origin.lastValidators?.etag == #""v1""#)
        // Fresh again for a whole TTL from the 304.
        clock.advance(by: .seconds(59))
        #expect(text(proxy.inMemory("a")) == "photo")
    }

    @Test func concurrent_misses_of_one_key_make_one_origin_call() async {
        let proxy = proxy()
        origin.answer(.ok("shared", etag: #""v1""#), hold: true)
        let callers = 20
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<callers {
                group.addTask { self.text(await proxy.outcome("a", requestID: "r")) }
            }
            let key = KeptResourceKey(path: "a", variantName: "test")
            while proxy.flights.callers(of: key) < callers { await Task.yield() }
            origin.open()
            var texts: [String?] = []
            for await text in group { texts.append(text) }
            #expect(texts == Array(repeating: "shared", count: callers))
        }
        #expect(origin.calls == 1)
    }

    @Test func an_origin_that_is_down_gives_the_stale_answer_then_asks_again_after_the_retry_pause() async {
        let proxy = proxy()
        origin.answer(.down)
        #expect(text(await proxy.outcome("a", requestID: "r")) == "failed 502")

        origin.answer(.ok("kept", etag: #""v1""#))
        _ = await proxy.outcome("a", requestID: "r")
        clock.advance(by: .seconds(61))
        origin.answer(.down)
        #expect(text(await proxy.outcome("a", requestID: "r")) == "kept")
        #expect(origin.calls == 3)

        clock.advance(by: .seconds(9))
        #expect(text(await proxy.outcome("a", requestID: "r")) == "kept")
        #expect(origin.calls == 3)
        clock.advance(by: .seconds(2))
        origin.answer(.notModified)
        #expect(text(await proxy.outcome("a", requestID: "r")) == "kept")
        #expect(origin.calls == 4)
        // A 304 after the failure gives the answer its whole TTL again, not the retry pause.
        clock.advance(by: .seconds(30))
        #expect(text(proxy.inMemory("a")) == "kept")
    }

    @Test func a_missing_answer_is_remembered_for_the_ttl_only_when_the_user_asks_for_it() async {
        let remembering = proxy(remembersMisses: true)
        origin.answer(.notFound)
        #expect(text(await remembering.outcome("a", requestID: "r")) == "missing")
        #expect(text(remembering.inMemory("a")) == "missing")
        #expect(origin.calls == 1)

        let forgetting = proxy()
        #expect(text(await forgetting.outcome("b", requestID: "r")) == "missing")
        #expect(text(forgetting.inMemory("b")) == nil)
        #expect(origin.calls == 2)
    }
}
