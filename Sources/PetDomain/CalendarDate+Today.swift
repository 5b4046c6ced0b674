import Foundation

extension CalendarDate {
    /// The calendar day of `date` in `timeZone`: with `Europe/Warsaw` the visitor's "today" for a
    /// report's `lastSeenDate`, with UTC the backend's (it compares with UTC midnight,
    /// docs/report-validation.md). Nil only outside years 1...9999.
    public static func day(of date: Date, in timeZone: TimeZone) -> CalendarDate? {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        guard seconds.isFinite else { return nil }
        return CalendarDate(utcDayOf: Date(timeIntervalSince1970: seconds))
    }
}
