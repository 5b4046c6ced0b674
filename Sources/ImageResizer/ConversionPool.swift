internal import CVipsShim
import Foundation

/// A fixed set of threads of our own for photo conversions, a bounded pool: at most one
/// conversion per core runs at a time, off libmicrohttpd's threads and off Swift's cooperative
/// pool (a conversion blocks its thread for tens of milliseconds; on the cooperative pool a burst
/// of cold thumbnails would stall every awaiting page request). The threads run at a lower
/// scheduling priority, so page requests win the CPU when both want it, and at most `maxQueued`
/// jobs wait: more are refused at once (the caller answers 503) rather than queued without end.
public final class ConversionPool: @unchecked Sendable {
    // Safety: `queue`, `head` and `running` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var head = 0
    private var running = 0

    /// Conversions that may run at once.
    public let threadCount: Int
    /// Jobs that may wait for a thread.
    public let maxQueued: Int

    /// The process's pool: one thread per core, 64 waiting jobs at most.
    public static let shared = ConversionPool(threads: ProcessInfo.processInfo.activeProcessorCount, maxQueued: 64)

    /// Starts `threads` threads (they live as long as the process) at `niceness` above the
    /// process's own priority.
    public init(threads: Int, maxQueued: Int, niceness: Int32 = 5) {
        threadCount = max(1, threads)
        self.maxQueued = max(1, maxQueued)
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                _ = petspot_lower_thread_priority(niceness)
                work()
            }
            thread.name = "photo-conversion-\(index)"
            thread.start()
        }
    }

    /// Jobs waiting and running now (a gauge).
    public var load: (queued: Int, running: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (queue.count - head, running)
    }

    /// Runs `job` on one of the pool's threads and returns its result; nil at once when
    /// `maxQueued` jobs are already waiting.
    public func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            condition.lock()
            guard queue.count - head < maxQueued else {
                condition.unlock()
                continuation.resume(returning: nil)
                return
            }
            queue.append { continuation.resume(returning: job()) }
            condition.signal()
            condition.unlock()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while head == queue.count { condition.wait() }
            let job = queue[head]
            head += 1
            if head > 64, head * 2 > queue.count {
                // Drop the finished front so the array does not grow for ever.
                queue.removeFirst(head)
                head = 0
            }
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            condition.unlock()
        }
    }
}
