import Caching
import Testing

/// The sharded byte-bounded cache: bytes bound every shard, least recently used out first,
/// generations, keeping on second sighting, and many threads at once.
@Suite struct ShardedByteCacheTests {
    @Test func every_shard_stays_within_its_share_of_the_budget() {
        let cache = ShardedByteCache<String, Int>(maxBytes: 8_000, shardCount: 8)
        for index in 0..<5_000 {
            cache.insert(index, for: "key\(index)", cost: 50 + index % 70)
        }
        #expect(cache.shardSizes.count == 8)
        for shard in cache.shardSizes {
            #expect(shard.bytes <= 1_000)
            #expect(shard.entries > 0)
        }
        #expect(cache.size.bytes <= 8_000)
        #expect(cache.size.entries == cache.shardSizes.reduce(0) { $0 + $1.entries })
        #expect(cache.value(for: "key4999") == 4999)
    }

    @Test func bytes_evict_the_least_recently_used_first_and_say_which_keys_went() {
        let cache = ShardedByteCache<String, String>(maxBytes: 300, shardCount: 1)
        cache.insert("a", for: "a", cost: 100)
        cache.insert("b", for: "b", cost: 100)
        cache.insert("c", for: "c", cost: 100)
        #expect(cache.value(for: "a") == "a")

        let evicted = cache.insert("d", for: "d", cost: 150)

        #expect(evicted == ["b", "c"])
        #expect(cache.value(for: "a") == "a")
        #expect(cache.value(for: "d") == "d")
        #expect(cache.size == (entries: 2, bytes: 250))
    }

    /// What an index into the values needs (the response cache's raw targets): every value that
    /// went, whether replaced, evicted, emptied by a newer generation or by `removeAll`.
    @Test func insert_evicting_and_remove_all_give_every_value_that_went() {
        let cache = ShardedByteCache<String, String>(maxBytes: 300, shardCount: 1)
        _ = cache.insertEvicting("a1", for: "a", cost: 100, generation: 1)
        _ = cache.insertEvicting("b1", for: "b", cost: 100, generation: 1)

        let replaced = cache.insertEvicting("a2", for: "a", cost: 100, generation: 1)
        #expect(replaced.replaced == "a1")
        #expect(replaced.evicted.isEmpty)

        let evicting = cache.insertEvicting("c1", for: "c", cost: 150, generation: 1)
        #expect(evicting.replaced == nil)
        #expect(evicting.evicted.map(\.value) == ["b1"])

        let newer = cache.insertEvicting("d2", for: "d", cost: 10, generation: 2)
        #expect(Set(newer.evicted.map(\.value)) == ["a2", "c1"])
        #expect(cache.value(for: "a", generation: 2) == nil)

        let older = cache.insertEvicting("e1", for: "e", cost: 10, generation: 1)
        #expect(older.replaced == nil && older.evicted.isEmpty)
        #expect(cache.value(for: "e", generation: 1) == nil)

        // Without a generation: in the shard's own (2), so "d2" stays.
        _ = cache.insertEvicting("f", for: "f", cost: 10)
        #expect(cache.value(for: "f", generation: 2) == "f")
        #expect(Set(cache.removeAll()) == ["d2", "f"])
        #expect(cache.size == (entries: 0, bytes: 0))
    }

    @Test func an_entry_over_a_shards_share_is_not_kept() {
        let cache = ShardedByteCache<String, String>(maxBytes: 400, shardCount: 4)
        cache.insert("small", for: "s", cost: 100)
        cache.insert("large", for: "l", cost: 101)
        #expect(cache.value(for: "s") == "small")
        #expect(cache.value(for: "l") == nil)
    }

    @Test func a_newer_generation_replaces_and_an_older_one_is_ignored() {
        let cache = ShardedByteCache<String, String>(maxBytes: 1_000, shardCount: 1)
        cache.insert("old", for: "k", cost: 10, generation: 1)
        cache.insert("new", for: "k", cost: 10, generation: 2)
        cache.insert("late", for: "k2", cost: 10, generation: 1)
        #expect(cache.value(for: "k", generation: 1) == nil)
        #expect(cache.value(for: "k", generation: 2) == "new")
        #expect(cache.value(for: "k2", generation: 2) == nil)
        #expect(cache.size.entries == 1)
    }

    @Test func with_seen_slots_a_key_is_admitted_on_its_second_sighting() {
        let cache = ShardedByteCache<String, Int>(maxBytes: 1_000, shardCount: 2, seenSlots: 64)
        #expect(!cache.isSecondSighting(of: "page"))
        #expect(cache.isSecondSighting(of: "page"))
        #expect(!cache.isSecondSighting(of: "page"))
        let always = ShardedByteCache<String, Int>(maxBytes: 1_000, shardCount: 2)
        #expect(always.isSecondSighting(of: "page"))
    }

    @Test func removing_a_key_frees_its_bytes() {
        let cache = ShardedByteCache<String, String>(maxBytes: 1_000, shardCount: 2)
        cache.insert("v", for: "k", cost: 40)
        #expect(cache.remove("k"))
        #expect(!cache.remove("k"))
        #expect(cache.value(for: "k") == nil)
        #expect(cache.size == (entries: 0, bytes: 0))
    }

    @Test func many_tasks_at_once_keep_every_bound() async {
        let cache = ShardedByteCache<Int, [UInt8]>(maxBytes: 64_000, shardCount: 8)
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var hits = 0
                    for round in 0..<2_000 {
                        let key = (worker * 7 + round) % 600
                        if let kept = cache.value(for: key) {
                            hits += kept.count == key % 200 + 1 ? 1 : 0
                        } else {
                            cache.insert(Array(repeating: 1, count: key % 200 + 1), for: key, cost: key % 200 + 1 + 64)
                        }
                    }
                    return hits
                }
            }
            var hits = 0
            for await count in group { hits += count }
            #expect(hits > 0)
        }
        for shard in cache.shardSizes { #expect(shard.bytes <= 8_000) }
    }
}
