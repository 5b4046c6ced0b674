import Caching
import Synchronization
import Testing

/// A gate an operation waits at until the test opens it: the test decides when a run ends.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Suspends until the gate is open (at once when it already is).
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
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

/// Counts runs of an operation.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one and returns the new count.
    @discardableResult
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

struct Failed: Error, Equatable {
    let run: Int
}

/// Yields until `condition` holds (other tasks get to run; no wall-clock waiting).
func until(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// Single flight: concurrent callers of one key share one run, value or error.
@Suite struct SingleFlightTests {
    @Test func concurrent_callers_of_one_key_share_one_run() async {
        let flights = SingleFlight<String, Int, Never>()
        let gate = Gate()
        let runs = Counter()
        let callers = 50
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    await flights.value(for: "list") {
                        await gate.pass()
                        return runs.next() * 10
                    }
                }
            }
            await until { flights.callers(of: "list") == callers }
            gate.open()
            var outcomes: [Int] = []
            for await outcome in group { outcomes.append(outcome) }
            #expect(outcomes == Array(repeating: 10, count: callers))
        }
        #expect(runs.value == 1)
        #expect(flights.runningCount == 0)
    }

    @Test func a_run_started_in_the_background_is_shared_by_the_callers_that_come_while_it_runs() async {
        let flights = SingleFlight<String, Int, Never>()
        let gate = Gate()
        let runs = Counter()
        let operation: @Sendable () async -> Int = {
            await gate.pass()
            return runs.next() * 10
        }

        #expect(flights.start(for: "list", operation))
        #expect(!flights.start(for: "list", operation))  // one runs already
        #expect(flights.isRunning("list"))
        #expect(flights.callers(of: "list") == 0)  // the starter does not wait for it
        let joined = Task { await flights.value(for: "list", operation) }
        await until { flights.callers(of: "list") == 1 }
        gate.open()

        #expect(await joined.value == 10)
        #expect(runs.value == 1)
        await until { flights.runningCount == 0 }
        #expect(flights.start(for: "list", operation))  // ended: the next start runs again
        await until { runs.value == 2 }
    }

    @Test func an_error_reaches_every_waiting_caller_and_the_next_call_runs_again() async {
        let flights = SingleFlight<String, Int, Failed>()
        let gate = Gate()
        let runs = Counter()
        await withTaskGroup(of: Failed?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(Failed) {
                        _ = try await flights.value(for: "k") { () async throws(Failed) -> Int in
                            await gate.pass()
                            throw Failed(run: runs.next())
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            await until { flights.callers(of: "k") == 10 }
            gate.open()
            var errors: [Failed?] = []
            for await error in group { errors.append(error) }
            #expect(errors == Array(repeating: Failed(run: 1), count: 10))
        }
        let again = try? await flights.value(for: "k") { () async throws(Failed) -> Int in runs.next() }
        #expect(again == 2)
        #expect(runs.value == 2)
    }

    @Test func different_keys_run_apart() async {
        let flights = SingleFlight<Int, Int, Never>()
        let runs = Counter()
        async let one = flights.value(for: 1) {
            runs.next()
            return 1
        }
        async let two = flights.value(for: 2) {
            runs.next()
            return 2
        }
        #expect(await [one, two] == [1, 2])
        #expect(runs.value == 2)
    }

    @Test func a_restart_runs_again_and_later_callers_join_the_new_run() async {
        let flights = SingleFlight<String, String, Never>()
        let first = Gate()
        let second = Gate()
        let secondStarted = Counter()
        let old = Task {
            await flights.value(for: "k") {
                await first.pass()
                return "old"
            }
        }
        await until { flights.isRunning("k") }
        let restarted = Task {
            await flights.value(for: "k", restart: true) {
                secondStarted.next()
                await second.pass()
                return "new"
            }
        }
        // A run starts only once registered: from now on callers join the new run.
        await until { secondStarted.value == 1 }
        let later = Task { await flights.value(for: "k") { "never run" } }
        await until { flights.callers(of: "k") == 2 }

        first.open()
        #expect(await old.value == "old")
        // The old run ending leaves the new one registered: a caller now still joins it.
        #expect(flights.isRunning("k"))
        second.open()
        #expect(await restarted.value == "new")
        #expect(await later.value == "new")
        #expect(flights.runningCount == 0)
    }

    @Test func a_cancelled_caller_gets_the_shared_outcome_and_the_run_is_not_cancelled() async {
        let flights = SingleFlight<String, Bool, Never>()
        let gate = Gate()
        let caller = Task {
            await flights.value(for: "k") {
                await gate.pass()
                return Task.isCancelled
            }
        }
        await until { flights.isRunning("k") }
        caller.cancel()
        gate.open()
        #expect(await caller.value == false)
    }
}
