import Foundation

/// The pet's sex (docs/upstream.md §2 "sex"); never a reason to drop a report.
public enum Sex: String, Sendable, CaseIterable {
    /// Male.
    case male
    /// Female.
    case female
    /// Not known, not given, or given as something we do not recognise.
    case unknown

    /// The value the current backend uses, e.g. "MALE" (docs/upstream.md §4 JSON API).
    public var apiValue: String { rawValue.uppercased() }

    /// Reads MALE / FEMALE / UNKNOWN case-insensitively; anything else or nothing is `unknown`
    /// (docs/upstream.md §2: "other or missing → unknown").
    public init(upstream raw: String?) {
        guard let raw else {
            self = .unknown
            return
        }
        self = Sex(rawValue: TextNormalization.trimmed(raw).lowercased()) ?? .unknown
    }
}
