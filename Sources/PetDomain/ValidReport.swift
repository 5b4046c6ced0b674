import Foundation

/// A report that passed `ReportValidation`: trimmed, typed values, ready for the upstream's
/// `POST /api/v1/announcements` (`upstreamJSON()`). Optional values are nil when the visitor left them empty.
public struct ValidReport: Sendable, Equatable {
    /// Trimmed, at most 100 characters.
    public let petName: String?
    /// The species.
    public let species: Species
    /// Trimmed, at most 100 characters.
    public let breed: String?
    /// Male, female, or unknown (found pets only).
    public let sex: Sex
    /// 1–40 years.
    public let age: Int?
    /// Trimmed, at most 500 characters.
    public let description: String?
    /// Digits only, 1–15 of them (spaces and dashes removed).
    public let microchipNumber: String?
    /// Where the pet was last seen (or found).
    public let coordinate: Coordinate
    /// Passes the backend's pattern and the read side's `EmailRule`.
    public let email: String?
    /// Contains a digit, at most 30 characters.
    public let phone: String?
    /// Not after the visitor's today nor the backend's UTC today.
    public let lastSeenDate: CalendarDate
    /// `.missing` or `.found`.
    public let status: AnnouncementStatus
    /// Trimmed, within the client's `ReportLimits` (for the web form, readable as an amount by `Reward`).
    public let reward: String?

    /// The microchip grouped by five for the form, `12345-67890-12345` (shorter numbers grouped the
    /// same way: `12345-678`), as the PetSpot apps show it (docs/report-validation.md).
    public var microchipDisplay: String? {
        microchipNumber.map(ValidReport.groupedByFive)
    }

    /// `digits` with a dash after every fifth character.
    static func groupedByFive(_ digits: String) -> String {
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, offset % 5 == 0 { grouped.append("-") }
            grouped.append(digit)
        }
        return grouped
    }
}
