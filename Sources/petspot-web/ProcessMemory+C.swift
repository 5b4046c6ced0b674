internal import CMalloc
import Foundation

/// The process's heap, where a server needs to say something about it.
enum ProcessMemory {
    /// Limits glibc to `count` malloc arenas; call once at startup, before the server's threads
    /// start. Each thread that allocates otherwise gets its own arena (up to 8 per core), each
    /// keeping the memory freed in it. Too few, and the server threads share an arena's lock: with
    /// 2, every located page's ~100 allocations met there (a futex call every other page, perf);
    /// docs/performance-history.md "Malloc arenas" has the measurements.
    static func limitArenas(_ count: Int32) {
        petspot_limit_malloc_arenas(count)
    }

    /// Arenas beside the server threads' own: the main thread's, the concurrency pool's and NIO's.
    static let otherArenas = 4

    /// Blocks of 256 KiB and more get their own mapping, given back when freed (list bodies, their
    /// compressed forms, a snapshot's arrays), and an arena gives back its free top beyond 1 MiB.
    /// glibc's default threshold slides up to the largest block freed so far, so after one 28 MB
    /// list body every later one stayed in an arena (docs/performance.md "Memory").
    static func setThresholds() {
        petspot_set_malloc_thresholds(256 * 1024, 1024 * 1024)
    }

    /// Gives the free pages inside the arenas back to the system every `seconds`, on a thread of
    /// its own: what a snapshot refresh or a burst of pages freed stays resident otherwise.
    static func trimPeriodically(every seconds: Double) {
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: seconds)
                _ = petspot_trim_malloc()
            }
        }
        thread.name = "malloc-trim"
        thread.qualityOfService = .background
        thread.start()
    }
}
