/// The unguessable references of the write path (docs/report-flow.md): a refused report's kept
/// photo and each submitted form are found by one carried in the form (no cookie and no session),
/// and an attempt's owner token is one too. What they name is kept in this process's memory only
/// (`MemoryWriteStore`, on `ExpiringMap`) or in the shared store: never on disk here, never in an
/// HTTP cache.
public enum FormReference {
    /// A new reference: 128 random bits from the system's generator, as 32 hex digits.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// True when `text` has the shape of a reference (so nothing else is ever looked up or logged).
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
