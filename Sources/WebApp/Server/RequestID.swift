import Synchronization

/// Request ids: the client's `X-Request-Id` when it is sane, else a fresh one.
enum RequestID {
    /// A sane id is 1–64 characters of letters, digits, `-`, `_` and `.` (no log injection).
    static func isSane(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    return true
                default:
                    return false
                }
            }
    }

    /// The id to use for a request that sent `header` (nil when absent).
    static func choose(from header: String?) -> String {
        if let header, isSane(header) { return header }
        return generate()
    }

    /// 16 lower-case hex characters, unique in this process and unpredictable enough for tracing
    /// (not a secret): a counter from a random start, mixed (SplitMix64). The system generator
    /// cost a `getrandom` system call per request, measurable on the warm path.
    static func generate() -> String {
        var value = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return String(value, radix: 16).leftPadded(to: 16)
    }

    private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))
}
