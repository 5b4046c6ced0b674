import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension BodyCompression {
    /// Makes `body`'s forms at `level` on the one background compression thread, then calls
    /// `done` there. For bodies too large to compress on a server thread (the whole API list:
    /// 28 MB at 50,000 items takes seconds): until `done`, their answers go uncompressed.
    static func inBackground(_ body: [UInt8], level: CompressionPolicy.Level, done: @escaping @Sendable (CompressedForms) -> Void) {
        BackgroundCompressor.shared.run { done(forms(of: body, level: level)) }
    }
}

/// One thread, at a lower scheduling priority than the server's, that runs compression jobs in
/// order: page requests win the CPU while a big body is compressed, and at most one core is spent.
private final class BackgroundCompressor: Sendable {
    static let shared = BackgroundCompressor()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            // Linux gives each thread its own nice value; `who` 0 is the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "petspot-compress"
        thread.start()
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }
}
