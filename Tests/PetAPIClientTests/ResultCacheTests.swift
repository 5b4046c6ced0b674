import HTTPTypes
import TestSupport
import Testing

@testable import PetAPIClient

/// Specifications of the result cache (docs/scaling.md) on a manual clock: TTL, single flight,
/// revalidation, stale-if-error and eviction. Nothing here waits on real time.
@Suite struct ResultCacheTests {
    let clock = ManualClock()
    let events = CacheEventLog()

    private func cache(
        ttl: Duration = .seconds(30),
        staleMax: Duration = .seconds(600),
        refreshWindow: Duration = .zero,
        maxEntries: Int = 16,
        maxCost: Int = 1_000
    ) -> ResultCache<String> {
        ResultCache(
            ttl: ttl,
            staleMax: staleMax,
            refreshWindow: refreshWindow,
            maxEntries: maxEntries,
            maxCost: maxCost,
            now: clock.reading,
            onEvent: events.record
        )
    }

    /// Stores `key` with itself as value and the given cost.
    private func store(_ key: String, cost: Int, in cache: ResultCache<String>) async throws {
        _ = try await cache.value(for: key) { _ in .fresh(key, etag: nil, cost: cost) }
    }

    // MARK: - TTL

    @Test func a_value_within_the_ttl_is_served_without_a_second_fetch() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(29))
        upstream.answer(.value("second", etag: nil, cost: 1))
        let again = try await cache.value(for: "list", fetch: upstream.fetch)

        #expect(again.value == "first")
        #expect(upstream.calls == 1)
        #expect(cache.freshValue(for: "list")?.value == "first")
        #expect(events.count(.miss) == 1)
        #expect(events.count(.hit) == 2)
    }

    @Test func after_the_ttl_the_next_request_fetches_once_more() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(30))
        upstream.answer(.value("second", etag: nil, cost: 1))
        let first = try await cache.value(for: "list", fetch: upstream.fetch)
        let second = try await cache.value(for: "list", fetch: upstream.fetch)

        #expect(first.value == "second")
        #expect(second.value == "second")
        #expect(upstream.calls == 2)
    }

    @Test func freshValue_is_nil_before_the_first_fetch_and_after_the_ttl() async throws {
        let cache = cache()
        #expect(cache.freshValue(for: "list") == nil)
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)
        #expect(cache.freshValue(for: "list")?.value == "first")

        clock.advance(by: .seconds(30))

        #expect(cache.freshValue(for: "list") == nil)
        #expect(cache.hasEntry(confirmedWithin: .seconds(30)))
        #expect(!cache.hasEntry(confirmedWithin: .seconds(29)))
    }

    // MARK: - Single flight

    @available(macOS 26, *)
    @Test func concurrent_requests_for_one_key_share_one_fetch() async throws {
        let cache = cache()
        let gate = Gate()
        let upstream = ScriptedFetch(.value("shared", etag: nil, cost: 1), gate: gate)

        // The first caller starts the fetch, which stops at the gate; the others look the key up
        // while it waits (`Task.immediate` runs each lookup before returning), then the gate opens.
        let first = Task { try await cache.value(for: "list", fetch: upstream.fetch) }
        await gate.firstArrival()
        let others = (1..<10).map { _ in Task.immediate { try await cache.value(for: "list", fetch: upstream.fetch) } }
        gate.open()

        var values = [try await first.value.value]
        for task in others { values.append(try await task.value.value) }

        #expect(upstream.calls == 1)
        #expect(values == Array(repeating: "shared", count: 10))
        #expect(events.count(.miss) == 1)
        #expect(events.count(.hit) == 0)  // every caller waited for the one fetch
    }

    @available(macOS 26, *)
    @Test func a_failed_shared_fetch_fails_every_waiter_and_the_next_request_tries_again() async throws {
        let cache = cache()
        let gate = Gate()
        let upstream = ScriptedFetch(.failure(.timeout), gate: gate)

        let first = Task { try await cache.value(for: "list", fetch: upstream.fetch) }
        await gate.firstArrival()
        let others = (1..<5).map { _ in Task.immediate { try await cache.value(for: "list", fetch: upstream.fetch) } }
        gate.open()
        for task in [first] + others {
            await #expect(throws: UpstreamFailure.timeout) { try await task.value }
        }
        #expect(upstream.calls == 1)

        upstream.answer(.value("back", etag: nil, cost: 1))
        #expect(try await cache.value(for: "list", fetch: upstream.fetch).value == "back")
        #expect(upstream.calls == 2)
    }

    // MARK: - Revalidation

    @Test func after_the_ttl_the_fetch_is_sent_the_stored_etag() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.value("first", etag: "\"v1\"", cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(31))
        upstream.answer(.value("second", etag: "\"v2\"", cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)
        clock.advance(by: .seconds(31))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        #expect(upstream.etagsSent == [nil, "\"v1\"", "\"v2\""])
    }

    @Test func a_304_keeps_the_value_and_makes_it_fresh_for_another_ttl() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.value("first", etag: "\"v1\"", cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(31))
        upstream.answer(.notModified)
        let revalidated = try await cache.value(for: "list", fetch: upstream.fetch)
        clock.advance(by: .seconds(29))
        let later = try await cache.value(for: "list", fetch: upstream.fetch)

        #expect(revalidated.value == "first")
        #expect(!revalidated.isStale)
        #expect(later.value == "first")
        #expect(upstream.calls == 2)
        #expect(events.count(.revalidated) == 1)
        #expect(cache.freshValue(for: "list")?.value == "first")
    }

    @Test func a_304_without_a_cached_copy_is_a_failure() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.notModified)

        await #expect(throws: UpstreamFailure.malformedBody(detail: "304 without a cached copy", upstreamRequestID: nil)) {
            try await cache.value(for: "list", fetch: upstream.fetch)
        }
        #expect(events.count(.revalidated) == 0)
        #expect(cache.size.entries == 0)
    }

    // MARK: - Stale if error

    @Test func a_failing_refresh_within_staleMax_serves_the_old_value_marked_stale() async throws {
        let cache = cache(staleMax: .seconds(600))
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        let original = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(600))
        upstream.answer(.failure(.badStatus(503, upstreamRequestID: "up-1")))
        let served = try await cache.value(for: "list", fetch: upstream.fetch)

        #expect(served.value == "first")
        #expect(served.staleBecause == .badStatus(503, upstreamRequestID: "up-1"))
        #expect(served.fetchedAt == original.fetchedAt)
        #expect(events.count(.stale) == 1)
        // A stale copy is not fresh: the next request asks the upstream again.
        #expect(cache.freshValue(for: "list") == nil)
        upstream.answer(.value("second", etag: nil, cost: 1))
        #expect(try await cache.value(for: "list", fetch: upstream.fetch).value == "second")
        #expect(upstream.calls == 3)
    }

    @Test func a_failing_refresh_beyond_staleMax_throws() async throws {
        let cache = cache(staleMax: .seconds(600))
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(601))
        upstream.answer(.failure(.timeout))

        await #expect(throws: UpstreamFailure.timeout) {
            try await cache.value(for: "list", fetch: upstream.fetch)
        }
        #expect(events.count(.stale) == 0)
    }

    // MARK: - Refreshing in the background

    /// Yields until `condition` holds; false after 100,000 turns (a bound on a hang, not a time).
    private func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    @Test func within_the_refresh_window_the_held_value_answers_at_once_while_one_call_refreshes_it() async throws {
        let cache = cache(refreshWindow: .seconds(15))
        let first = ScriptedFetch(.value("first", etag: "\"v1\"", cost: 1))
        _ = try await cache.value(for: "list", fetch: first.fetch)

        clock.advance(by: .seconds(31))
        let gate = Gate()
        let upstream = ScriptedFetch(.value("second", etag: "\"v2\"", cost: 1), gate: gate)
        // The call is held at the gate, and yet every caller has its answer: the value held.
        var answers: [String] = []
        for _ in 0..<5 { answers.append(try await cache.value(for: "list", fetch: upstream.fetch).value) }
        await gate.firstArrival()

        #expect(answers == Array(repeating: "first", count: 5))
        #expect(upstream.calls == 1)
        #expect(upstream.etagsSent == ["\"v1\""])
        #expect(cache.freshValue(for: "list") == nil)

        gate.open()
        #expect(await eventually { cache.freshValue(for: "list") != nil })
        #expect(try await cache.value(for: "list", fetch: upstream.fetch).value == "second")
        #expect(upstream.calls == 1)
    }

    @Test func past_the_refresh_window_the_request_waits_for_the_call() async throws {
        let cache = cache(refreshWindow: .seconds(15))
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(45))
        upstream.answer(.value("second", etag: nil, cost: 1))

        #expect(try await cache.value(for: "list", fetch: upstream.fetch).value == "second")
        #expect(upstream.calls == 2)
    }

    @Test func a_failed_background_refresh_keeps_the_value_held_and_past_the_window_it_is_marked_stale() async throws {
        let cache = cache(refreshWindow: .seconds(15))
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(31))
        upstream.answer(.failure(.timeout))
        let held = try await cache.value(for: "list", fetch: upstream.fetch)
        #expect(held.value == "first")
        #expect(held.staleBecause == nil)
        // The background call failed (stale-if-error kept the value; nobody waited for it).
        #expect(await eventually { upstream.calls == 2 && events.count(.stale) == 1 })

        clock.advance(by: .seconds(15))
        let served = try await cache.value(for: "list", fetch: upstream.fetch)
        #expect(served.value == "first")
        #expect(served.staleBecause == .timeout)
        #expect(upstream.calls == 3)
    }

    @Test func the_refresh_window_never_serves_a_value_older_than_staleMax() async throws {
        let cache = cache(staleMax: .seconds(40), refreshWindow: .seconds(15))
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(41))
        upstream.answer(.failure(.timeout))

        await #expect(throws: UpstreamFailure.timeout) {
            try await cache.value(for: "list", fetch: upstream.fetch)
        }
    }

    @Test func without_a_refresh_window_the_request_after_the_ttl_waits_for_the_call() async throws {
        let cache = cache()
        let upstream = ScriptedFetch(.value("first", etag: nil, cost: 1))
        _ = try await cache.value(for: "list", fetch: upstream.fetch)

        clock.advance(by: .seconds(31))
        upstream.answer(.value("second", etag: nil, cost: 1))

        #expect(try await cache.value(for: "list", fetch: upstream.fetch).value == "second")
    }

    // MARK: - Eviction

    @Test func the_entry_bound_drops_the_least_recently_used_first() async throws {
        let cache = cache(maxEntries: 2)
        try await store("a", cost: 1, in: cache)
        clock.advance(by: .seconds(1))
        try await store("b", cost: 1, in: cache)
        clock.advance(by: .seconds(1))
        try await store("a", cost: 1, in: cache)  // a hit: "a" is now used more recently than "b"
        clock.advance(by: .seconds(1))

        try await store("c", cost: 1, in: cache)

        #expect(cache.size.entries == 2)
        #expect(cache.freshValue(for: "a") != nil)
        #expect(cache.freshValue(for: "b") == nil)
        #expect(cache.freshValue(for: "c") != nil)
    }

    @Test func the_cost_bound_holds_and_drops_the_least_recently_used_first() async throws {
        let cache = cache(maxCost: 100)
        try await store("a", cost: 40, in: cache)
        clock.advance(by: .seconds(1))
        try await store("b", cost: 40, in: cache)
        clock.advance(by: .seconds(1))

        try await store("c", cost: 40, in: cache)

        #expect(cache.size.entries == 2)
        #expect(cache.size.cost == 80)
        #expect(cache.freshValue(for: "a") == nil)
        #expect(cache.freshValue(for: "b") != nil)
        #expect(cache.freshValue(for: "c") != nil)
    }

    @Test func the_newest_entry_stays_even_when_it_alone_is_over_the_cost_bound() async throws {
        let cache = cache(maxCost: 100)
        try await store("a", cost: 40, in: cache)
        clock.advance(by: .seconds(1))

        try await store("huge", cost: 500, in: cache)

        #expect(cache.size.entries == 1)
        #expect(cache.size.cost == 500)
        #expect(cache.freshValue(for: "huge")?.value == "huge")
        #expect(cache.freshValue(for: "a") == nil)
    }

    @Test func a_refreshed_entry_replaces_its_old_cost() async throws {
        let cache = cache(maxCost: 100)
        try await store("a", cost: 40, in: cache)
        clock.advance(by: .seconds(31))

        try await store("a", cost: 70, in: cache)

        #expect(cache.size.entries == 1)
        #expect(cache.size.cost == 70)
    }
}
