/// Request ids: the client's `X-Request-Id` when it is sane, else a fresh one (issue 2).
enum RequestID {
    /// A sane id is 1–64 characters of letters, digits, `-`, `_` and `.` (no log injection).
    static func isSane(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { byte in
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

    /// 16 random lower-case hex characters.
    static func generate() -> String {
        let value = UInt64.random(in: .min ... .max)
        return String(value, radix: 16).leftPadded(to: 16)
    }
}
