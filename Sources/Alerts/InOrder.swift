import Synchronization

/// Runs async jobs one at a time, in the order they were given, each waiting for the one before: the
/// fan-out of snapshots (each compares its list with the last one handled) and the sender's drains (a
/// caller waits for the drain in flight, whose claimed mails it could not take, then looks again).
public final class InOrder: Sendable {
    private let last = Mutex<Task<Int, Never>?>(nil)

    public init() {}

    /// Runs `job` after every job given before it; returns its result.
    public func run(_ job: @escaping @Sendable () async -> Int) async -> Int {
        let task = last.withLock { last -> Task<Int, Never> in
            let before = last
            let next = Task {
                _ = await before?.value
                return await job()
            }
            last = next
            return next
        }
        return await task.value
    }
}
