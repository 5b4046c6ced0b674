import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization
import Testing

@testable import WebApp

/// The one way a route answers (`RoutePlan`, docs/architecture.md "The life of a request"): the
/// data is looked up in memory once, fetched at most once and only when it is not there, and
/// rendered once; and the reuse policy keeps only what every visitor of a target may get.
@Suite("Route plans and the reuse policy")
struct RoutePlanTests {
    /// How often each part of a plan ran.
    final class Calls: Sendable {
        let inMemory = Atomic<Int>(0)
        let fetch = Atomic<Int>(0)
        let render = Atomic<Int>(0)
    }

    private static func plan(calls: Calls, inMemory: Int?) -> RoutePlan {
        let need = Need<Int>(
            inMemory: {
                calls.inMemory.add(1, ordering: .relaxed)
                return inMemory
            },
            fetch: {
                calls.fetch.add(1, ordering: .relaxed)
                return 8
            }
        )
        return .needs(need) { value in
            calls.render.add(1, ordering: .relaxed)
            return Reply(.text("value \(value)"))
        }
    }

    @Test func data_in_memory_is_rendered_at_once_without_fetching() throws {
        let calls = Calls()
        let reply = try Self.plan(calls: calls, inMemory: 7).now()
        #expect(reply.map { String(decoding: $0.response.body, as: UTF8.self) } == "value 7")
        #expect(calls.inMemory.load(ordering: .relaxed) == 1)
        #expect(calls.fetch.load(ordering: .relaxed) == 0)
        #expect(calls.render.load(ordering: .relaxed) == 1)
    }

    @Test func data_not_in_memory_is_fetched_once_then_rendered_once() async throws {
        let calls = Calls()
        let plan = Self.plan(calls: calls, inMemory: nil)
        #expect(try plan.now() == nil)
        #expect(calls.render.load(ordering: .relaxed) == 0)
        let reply = try await plan.later()
        #expect(String(decoding: reply.response.body, as: UTF8.self) == "value 8")
        #expect(calls.inMemory.load(ordering: .relaxed) == 1)
        #expect(calls.fetch.load(ordering: .relaxed) == 1)
        #expect(calls.render.load(ordering: .relaxed) == 1)
    }

    @Test func work_always_waits() async throws {
        let plan = RoutePlan.work { .text("done") }
        #expect(try plan.now() == nil)
        #expect(String(decoding: try await plan.later().response.body, as: UTF8.self) == "done")
    }

    @Test func only_a_reusable_200_to_a_get_or_head_is_kept() {
        let until = ContinuousClock.now + .seconds(30)
        let shared = CachePolicy.shared(ttlSeconds: 30, staleIfErrorSeconds: 3600, until: until)
        let page = Reply(.html("<p>page</p>"), cache: shared)
        #expect(page.keptUntil(method: .get) == until)
        #expect(page.keptUntil(method: .head) == until)
        #expect(page.keptUntil(method: .post) == nil)
        #expect(Reply(.html("<p>page</p>")).keptUntil(method: .get) == nil)
        #expect(Reply(.html("gone", status: 404), cache: shared).keptUntil(method: .get) == nil)
        let secret = Reply(.html("<p>your code</p>"), cache: .private)
        // The header step writes the policy (`AnswerHeaders`), not the reply's maker.
        #expect(AnswerHeaders.finished(secret.response, cache: secret.cache).headers[.cacheControl] == "no-store")
        #expect(secret.keptUntil(method: .get) == nil)
    }

    @Test func a_page_is_kept_until_its_ttl_or_midnight_whichever_is_first() {
        let policy = CachePolicy.fresh(ttlSeconds: 30, staleMaxSeconds: 3600)
        let confirmed = ContinuousClock.now
        let page = Response.html("<p>page</p>")
        #expect(
            policy.keptUntil(confirmedAt: confirmed, endOfDay: confirmed + .seconds(3600)).keptUntil(page, method: .get) == confirmed + .seconds(30)
        )
        #expect(
            policy.keptUntil(confirmedAt: confirmed, endOfDay: confirmed + .seconds(10)).keptUntil(page, method: .get) == confirmed + .seconds(10)
        )
        #expect(policy.cacheControl == "public, max-age=0, s-maxage=30, stale-if-error=3600")
        #expect(policy.cdnCacheControl == "max-age=30, stale-while-revalidate=30, stale-if-error=3600")
    }
}
