import Foundation

/// How old a report is, counted in calendar days of one time zone (docs/report-age.md): "today",
/// "yesterday", "N days ago" up to `wordedDays`, then the day it was made. Pages word it; this
/// only decides which case applies, so the day boundaries are tested once, here.
public enum ReportAge: Equatable, Sendable {
    /// Made on the current day (or, with a clock behind the upstream's, apparently later).
    case today
    /// Made on the day before.
    case yesterday
    /// Made 2...`wordedDays` days ago.
    case daysAgo(Int)
    /// Made longer ago: shown as that day's date.
    case on(CalendarDate)

    /// The oldest report worded in days; older ones show their date.
    public static let wordedDays = 30
    /// A report older than this many days is marked as possibly outdated on its details page.
    public static let outdatedAfterDays = 90

    /// The age of a report made at `createdAt` when the current day is `today` (`LocalDay.number`) in `zone`.
    public init(createdAt: Date, today: Int, zone: TimeZone) {
        let created = LocalDay.number(of: createdAt, in: zone)
        let days = today - created
        switch days {
        case ...0: self = .today
        case 1: self = .yesterday
        case 2...ReportAge.wordedDays: self = .daysAgo(days)
        default: self = CalendarDate(daysSinceEpoch: created).map(ReportAge.on) ?? .daysAgo(days)
        }
    }

    /// True when a report made at `createdAt` is more than `outdatedAfterDays` whole days old on day `today`.
    public static func isOutdated(createdAt: Date, today: Int, zone: TimeZone) -> Bool {
        today - LocalDay.number(of: createdAt, in: zone) > outdatedAfterDays
    }
}

/// Calendar days of a time zone numbered from 1970-01-01 (the numbering of `CalendarDate`), so
/// "is it still the same day" is an integer comparison.
public enum LocalDay {
    /// The number of the day `date` falls on in `zone`.
    public static func number(of date: Date, in zone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        guard local.isFinite, abs(local) < 1e14 else { return 0 }
        return Int((local / 86_400).rounded(.down))
    }

    /// The instant day `day` begins in `zone` (its local midnight; the offset in force just before
    /// it is used, which is exact except on a day whose midnight itself is skipped by a clock change).
    public static func start(of day: Int, in zone: TimeZone) -> Date {
        let midnightUTC = Date(timeIntervalSince1970: Double(day) * 86_400)
        let offset = zone.secondsFromGMT(for: midnightUTC.addingTimeInterval(-86_400 / 2))
        return midnightUTC.addingTimeInterval(-Double(offset))
    }
}
