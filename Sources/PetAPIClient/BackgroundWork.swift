import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Work that must not take the server's threads' turn: the decode and index of a new list and what is made per
/// item of it (docs/performance.md "Steady speed"). Each run gets a thread of its own whose nice value is raised
/// by `niceness` (on Linux a thread's nice value is its own, so `setpriority(PRIO_PROCESS, 0, …)` lowers only
/// it), so under load the kernel gives the cores to the server's threads first; Swift's task priorities do not
/// reach the kernel on Linux, so a task of low priority would still run as one of equal weight.
public enum BackgroundWork {
    /// How much lower than the server's threads it runs: nice 5 weighs about a third of nice 0 (the kernel's
    /// table: 335 against 1,024), so a list's decode under full load takes about three times its CPU time, well
    /// within the refresh window (`--refresh-window`); 19 would weigh 1/68 and could outlast it.
    public static let niceness: Int32 = 5

    /// What a run cost: CPU time on its thread, and time from start to end.
    public struct Cost: Sendable {
        public var cpu: Duration
        public var wall: Duration
    }

    /// Runs `work` on a thread of its own at lower priority and returns its value with what it cost.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> (Value, Cost) {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                #if canImport(Glibc)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                #endif
                let start = ContinuousClock.now
                let cpuStart = threadCPUTime()
                let value = work()
                let cost = Cost(cpu: threadCPUTime() - cpuStart, wall: start.duration(to: .now))
                continuation.resume(returning: (value, cost))
            }
            thread.name = "petspot-refresh"
            // The parser recurses once per nesting level (at most `JSONParser.maximumDepth`).
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// CPU time used by the calling thread so far.
    static func threadCPUTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}

/// A value handed to other work once: whoever takes it holds the only reference, so it is freed when they are
/// done with it, not when every closure that captured it is (a list body among the snapshot's work).
final class Handoff<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    /// The value, the first time; nil after.
    func take() -> Value? {
        value.withLock { held in
            defer { held = nil }
            return held
        }
    }
}
