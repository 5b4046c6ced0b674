import Foundation

/// Where a report stands (docs/upstream.md §2 "status").
public enum AnnouncementStatus: String, Sendable, CaseIterable, Codable {
    /// The pet is lost and being searched for.
    case missing
    /// A pet was found (or the lost one was found).
    case found
    /// The report is closed.
    case closed

    /// Badge text, e.g. "MISSING" (docs/upstream.md §3 status badge).
    public var label: String { rawValue.uppercased() }

    /// The value the current backend uses, e.g. "MISSING" (docs/upstream.md §4 JSON API).
    public var apiValue: String { rawValue.uppercased() }

    /// Reads every dialect's spelling case-insensitively: MISSING, ACTIVE (dialect B), LOST (dialect D)
    /// mean `missing`; FOUND; CLOSED (docs/upstream.md §2).
    public init?(upstream raw: String) {
        switch TextNormalization.trimmed(raw).lowercased() {
        case "missing", "active", "lost": self = .missing
        case "found": self = .found
        case "closed": self = .closed
        default: return nil
        }
    }
}
