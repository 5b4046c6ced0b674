import Foundation

/// The process's open-file limit, which bounds how many connections a server can hold.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard one where the system allows it and returns the soft
    /// limit in force afterwards (a container's default soft limit is often far below its hard one).
    static func raiseToHard() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }
}
