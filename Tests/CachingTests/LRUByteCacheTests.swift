import Caching
import Testing

/// The rendered-page cache's LRU (docs/scaling.md): bounded by bytes, least recently used out first,
/// emptied by a new snapshot generation.
@Suite struct LRUByteCacheTests {
    @Test func total_cost_never_exceeds_the_budget_and_the_oldest_goes_first() {
        var cache = LRUByteCache<String, Int>(maxBytes: 1_000)
        for index in 0..<10_000 {
            cache.insert(index, for: "k\(index)", cost: 100 + index % 50, generation: 1)
            #expect(cache.totalCost <= 1_000)
        }
        #expect(cache.value(for: "k9999", generation: 1) == 9999)
        #expect(cache.value(for: "k0", generation: 1) == nil)
        #expect(cache.count < 10)
    }

    @Test func a_lookup_makes_an_entry_the_most_recently_used() {
        var cache = LRUByteCache<String, String>(maxBytes: 300)
        cache.insert("a", for: "a", cost: 100, generation: 1)
        cache.insert("b", for: "b", cost: 100, generation: 1)
        cache.insert("c", for: "c", cost: 100, generation: 1)
        #expect(cache.value(for: "a", generation: 1) == "a")
        cache.insert("d", for: "d", cost: 100, generation: 1)

        #expect(cache.value(for: "b", generation: 1) == nil)
        #expect(cache.value(for: "a", generation: 1) == "a")
        #expect(cache.value(for: "c", generation: 1) == "c")
        #expect(cache.value(for: "d", generation: 1) == "d")
    }

    @Test func a_new_generation_empties_the_cache_and_an_older_one_is_ignored() {
        var cache = LRUByteCache<String, String>(maxBytes: 1_000)
        cache.insert("old", for: "k", cost: 10, generation: 1)
        cache.insert("new", for: "k2", cost: 10, generation: 2)

        #expect(cache.value(for: "k", generation: 1) == nil)
        #expect(cache.value(for: "k", generation: 2) == nil)
        #expect(cache.value(for: "k2", generation: 2) == "new")
        cache.insert("late", for: "k3", cost: 10, generation: 1)
        #expect(cache.value(for: "k3", generation: 1) == nil)
        #expect(cache.count == 1)
    }

    @Test func replacing_a_key_updates_its_cost_and_an_entry_over_budget_is_not_kept() {
        var cache = LRUByteCache<String, String>(maxBytes: 100)
        cache.insert("x", for: "k", cost: 60, generation: 1)
        cache.insert("y", for: "k", cost: 30, generation: 1)
        #expect(cache.totalCost == 30)
        #expect(cache.value(for: "k", generation: 1) == "y")
        cache.insert("huge", for: "h", cost: 101, generation: 1)
        #expect(cache.value(for: "h", generation: 1) == nil)
        #expect(cache.totalCost == 30)
    }
}
