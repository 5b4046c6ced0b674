/// The 6-digit management password the backend hands out once per announcement, and how the demo
/// keeps it: only a salted, keyed hash, never the digits (docs/demo-upstream-writes.md).
///
/// The backend uses scrypt. Foundation has no password hash on Linux, so the demo uses Swift's
/// `Hasher` (SipHash-1-3 keyed with a random per-process seed) over a random per-item salt: good
/// enough for an in-memory demo that forgets everything on restart, not a production password hash.
struct ManagementPassword: Sendable, Equatable {
    /// The salt, random per announcement.
    let salt: UInt64
    /// The keyed hash of salt and password.
    let digest: Int

    /// A new password as the backend makes it: `randomInt(100000, 1000000)`, so never a leading zero.
    static func generate() -> String {
        String(Int.random(in: 100_000..<1_000_000))
    }

    /// The stored form of `password`.
    init(hashing password: String) {
        self.init(salt: UInt64.random(in: .min ... .max), password: password)
    }

    private init(salt: UInt64, password: String) {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(password)
        self.salt = salt
        self.digest = hasher.finalize()
    }

    /// Whether `password` is the one this hash was made from.
    func matches(_ password: String) -> Bool {
        ManagementPassword(salt: salt, password: password).digest == digest
    }
}
