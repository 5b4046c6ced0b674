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

    /// The first and last day numbers (`LocalDay`) a `CalendarDate` can hold: 0001-01-01 and 9999-12-31.
    static let dayNumbers = -719_162...2_932_896

    /// The day numbered `day` by `LocalDay` (days since 1970-01-01), held within years 1...9999: a
    /// clock's "today" is always a date, with no optional to unwrap on a request path.
    public init(localDay day: Int) {
        let clamped = min(max(day, CalendarDate.dayNumbers.lowerBound), CalendarDate.dayNumbers.upperBound)
        let (year, month, dayOfMonth) = CalendarDate.civil(daysSinceEpoch: clamped)
        self.year = year
        self.month = month
        self.day = dayOfMonth
    }
}
