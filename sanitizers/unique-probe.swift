// Probe for scripts/sanitizers.sh: one thread reads a class instance's field and drops its
// reference; the main thread waits until `isKnownUniquelyReferenced` says it holds the only one, then
// writes the field. That is correct Swift (copy-on-write rests on it: the release is ordered before the
// uniqueness check), but both atomics live in libswiftCore, which is not instrumented, so
// ThreadSanitizer sees no order between the read and the write. swift-nio's pooled receive buffers
// (NIOPooledRecvBufferAllocator) reuse a buffer exactly so, once the task that read it let it go;
// sanitizers/tsan-suppressions.txt names that one function, and this probe shows the report is of
// this kind on the toolchain in use.
import Foundation

final class Storage {
    var capacity = 64
}

final class Holder: @unchecked Sendable {
    var storage: Storage?
}

var owned = Storage()
let holder = Holder()
holder.storage = owned  // a second reference, handed over before the thread starts
let reader = Thread {
    var sum = 0
    sum += holder.storage?.capacity ?? 0  // the read (collect(upTo:) copying a received chunk)
    holder.storage = nil  // the release (the task dropping the chunk)
    if sum < 0 { print(sum) }
}
reader.start()
while !isKnownUniquelyReferenced(&owned) { usleep(100) }  // the pool's uniqueness check
owned.capacity = 128  // the write (reallocating the reused buffer)
print(owned.capacity)
