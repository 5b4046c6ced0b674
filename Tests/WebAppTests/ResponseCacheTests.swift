import Foundation
import HTTPTypes
import MicroHTTP
import Testing

@testable import WebApp

/// The response cache's two parts stay one: the raw targets indexed for the server's hook go when
/// their entry goes, whatever makes it go (docs/caches.md "The table", its response cache row).
@Suite("Response cache")
struct ResponseCacheTests {
    static func page(_ size: Int = 3000) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .eTag: "\"p\""],
            body: Array(repeating: UInt8(ascii: "a"), count: size)
        )
    }

    static func request(_ target: String) -> Request {
        Request(path: "/pets", rawTarget: target)
    }

    @Test func a_page_is_kept_on_its_second_sighting_and_its_spellings_are_indexed_to_it_up_to_a_limit() throws {
        let cache = ResponseCache(maxBytes: 8 << 20)
        let until = ContinuousClock.now + .seconds(60)
        #expect(cache.keep(Self.page(), for: "/pets en", generation: 1) == nil)
        let entry = try #require(cache.keep(Self.page(), for: "/pets en", generation: 1))
        #expect(cache.cached("/pets en", generation: 1) === entry)
        #expect(cache.cached("/pets en", generation: 2) == nil)

        for index in 0..<(CacheLimits.targetsPerResponse + 3) {
            cache.index(entry, for: Self.request("/pets?utm=\(index)"), route: "list", until: until)
        }
        // The same spelling again takes no second record.
        cache.index(entry, for: Self.request("/pets?utm=0"), route: "list", until: until)

        #expect(cache.size.entries == 1)
        #expect(cache.targets.entries == CacheLimits.targetsPerResponse)
    }

    @Test func a_newer_generation_takes_the_entry_and_its_targets_out() throws {
        let cache = ResponseCache(maxBytes: 8 << 20)
        let until = ContinuousClock.now + .seconds(60)
        _ = cache.keep(Self.page(), for: "/pets en", generation: 1)
        let old = try #require(cache.keep(Self.page(), for: "/pets en", generation: 1))
        cache.index(old, for: Self.request("/pets"), route: "list", until: until)
        cache.index(old, for: Self.request("/pets?a=1"), route: "list", until: until)
        #expect(cache.targets.entries == 2)

        _ = cache.keep(Self.page(), for: "/pets en", generation: 2)
        let new = try #require(cache.keep(Self.page(), for: "/pets en", generation: 2))

        #expect(cache.targets.entries == 0)
        #expect(cache.size.entries == 1)
        #expect(!old.isLive)
        // An entry that went is never indexed again; the new one is.
        cache.index(old, for: Self.request("/pets"), route: "list", until: until)
        #expect(cache.targets.entries == 0)
        cache.index(new, for: Self.request("/pets"), route: "list", until: until)
        #expect(cache.targets.entries == 1)

        // A late render from the older snapshot is not kept, so nothing can be indexed to it.
        #expect(cache.keep(Self.page(), for: "/pets en", generation: 1) == nil)
        #expect(cache.keep(Self.page(), for: "/pets en", generation: 1) == nil)
        #expect(cache.cached("/pets en", generation: 2) === new)
    }

    @Test func a_replaced_snapshot_empties_the_cache_and_a_late_render_of_it_is_never_kept_again() throws {
        let cache = ResponseCache(maxBytes: 8 << 20)
        let until = ContinuousClock.now + .seconds(60)
        let old = DayClock.reuseKey(generation: 1, day: 3)
        _ = cache.keep(Self.page(), for: "/pets en", generation: old)
        let entry = try #require(cache.keep(Self.page(), for: "/pets en", generation: old))
        cache.index(entry, for: Self.request("/pets"), route: "list", until: until)
        #expect(cache.targets.entries == 1)

        cache.retire(below: DayClock.reuseKey(generation: 2, day: 0))
        #expect(cache.size.entries == 0)
        #expect(cache.targets.entries == 0)
        // A request still on snapshot 1 renders its page: it is neither kept nor indexed (the server would give it until its TTL).
        #expect(cache.keep(Self.page(), for: "/pets?b en", generation: old) == nil)
        #expect(cache.keep(Self.page(), for: "/pets?b en", generation: old) == nil)
        cache.index(entry, for: Self.request("/pets?b"), route: "list", until: until)
        #expect(cache.targets.entries == 0)
        // The new snapshot's pages are kept as before; a lower floor later changes nothing.
        let current = DayClock.reuseKey(generation: 2, day: 3)
        _ = cache.keep(Self.page(), for: "/pets en", generation: current)
        #expect(cache.keep(Self.page(), for: "/pets en", generation: current) != nil)
        cache.retire(below: DayClock.reuseKey(generation: 1, day: 0))
        #expect(cache.keep(Self.page(), for: "/pets?b en", generation: old) == nil)
    }

    @Test func evicted_entries_take_their_targets_with_them_and_remove_all_empties_both() {
        let cache = ResponseCache(maxBytes: 64 * 1024)
        let until = ContinuousClock.now + .seconds(60)
        for index in 0..<200 {
            cache.keep(Self.page(4096), target: Array("/p/\(index)".utf8), language: 0, route: "r", path: "/p/\(index)", until: until)
        }
        let size = cache.size
        #expect(size.entries > 0 && size.entries < 200)
        #expect(size.bytes <= 64 * 1024)
        // One target per photo-like entry: every record still in the index has its entry.
        #expect(cache.targets.entries == size.entries)

        cache.removeAll()
        #expect(cache.size.entries == 0)
        #expect(cache.targets.entries == 0)
    }
}
