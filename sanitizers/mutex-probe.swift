// Probe for scripts/sanitizers.sh: threads add to one counter either under a
// `Synchronization.Mutex` (`locked`: correct, so any ThreadSanitizer report is a false one) or
// with no lock at all (`racy`: a real race that ThreadSanitizer must still report). Run under TSan
// with and without tsan-mutex.c preloaded, it shows what that library fixes and that it hides nothing.
import Dispatch
import Foundation
import Synchronization

final class Unguarded: @unchecked Sendable {
    var total = 0
}

let racy = CommandLine.arguments.dropFirst().first == "racy"
let guarded = Mutex<Int>(0)
let unguarded = Unguarded()
let finished = DispatchSemaphore(value: 0)
for _ in 0..<4 {
    Thread {
        for step in 0..<20_000 {
            if racy {
                unguarded.total += step & 1
            } else {
                guarded.withLock { $0 += step & 1 }
            }
        }
        finished.signal()
    }.start()
}
for _ in 0..<4 { finished.wait() }
print(racy ? unguarded.total : guarded.withLock { $0 })
