internal import CMicroHTTPD

/// SIGTERM/SIGINT handling the way libmicrohttpd needs it: blocked in every thread, awaited in one.
///
/// Threads inherit the signal mask of the thread that creates them, so `block()` must run first
/// thing in `main`, before the server, the HTTP client or any Task starts a thread; the signals are
/// then delivered only to the thread that calls `wait()`.
public enum TerminationSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread (and every thread started after).
    public static func block() {
        _ = petspot_block_termination_signals()
    }

    /// Blocks the calling thread until SIGTERM or SIGINT arrives; returns the signal number.
    public static func wait() -> Int32 {
        petspot_wait_termination_signal()
    }
}
