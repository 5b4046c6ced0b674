import Synchronization
import TestSupport

@testable import PetAPIClient

/// A gate a fake fetch waits at until the test opens it; the test can wait until someone arrives.
/// Replaces sleeps: the test decides when the upstream answers.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let arrivals: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation

    /// A closed gate.
    init() {
        let stream = AsyncStream.makeStream(of: Void.self)
        arrivals = stream.stream
        arrival = stream.continuation
    }

    /// Suspends until the gate is open (at once when it already is).
    func pass() async {
        arrival.yield()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
    }

    /// Returns once a caller has reached the gate.
    func firstArrival() async {
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Opens the gate and lets every waiting caller through.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// The cache events a test saw, in order.
final class CacheEventLog: Sendable {
    private let events = Mutex<[CacheEvent]>([])

    /// The closure the cache reports to.
    var record: @Sendable (CacheEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

    /// How many times `event` was reported.
    func count(_ event: CacheEvent) -> Int {
        events.withLock { $0.filter { $0 == event }.count }
    }
}

/// A scripted upstream for `ResultCache`: counts calls, records the ETag each call was sent, and
/// answers what the test set last (a value, a 304, or a failure), optionally after a gate.
final class ScriptedFetch: Sendable {
    /// What the next calls answer.
    enum Answer: Sendable {
        case value(String, etag: String?, cost: Int)
        case notModified
        case failure(UpstreamFailure)
    }

    private let state: Mutex<(answer: Answer, etags: [String?])>
    private let gate: Gate?

    /// A fetch answering `answer`; with a `gate`, each call waits there first.
    init(_ answer: Answer, gate: Gate? = nil) {
        state = Mutex((answer, []))
        self.gate = gate
    }

    /// Number of calls so far.
    var calls: Int { state.withLock { $0.etags.count } }

    /// The ETag each call was sent, in order.
    var etagsSent: [String?] { state.withLock { $0.etags } }

    /// Changes what the next calls answer.
    func answer(_ answer: Answer) {
        state.withLock { $0.answer = answer }
    }

    /// The closure to hand to `ResultCache.value(for:fetch:)`.
    var fetch: @Sendable (String?) async throws(UpstreamFailure) -> FetchOutcome<String> {
        { etag throws(UpstreamFailure) in
            let answer = self.state.withLock { state in
                state.etags.append(etag)
                return state.answer
            }
            await self.gate?.pass()
            switch answer {
            case .value(let value, let newTag, let cost): return .fresh(value, etag: newTag, cost: cost)
            case .notModified: return .notModified
            case .failure(let failure): throw failure
            }
        }
    }
}

/// A switch a test flips while a fake upstream reads it.
final class Switch: Sendable {
    private let state = Atomic<Bool>(false)

    /// Whether it is on.
    var isOn: Bool { state.load(ordering: .relaxed) }

    /// Turns it on.
    func turnOn() { state.store(true, ordering: .relaxed) }
}
