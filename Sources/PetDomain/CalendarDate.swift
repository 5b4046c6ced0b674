import Foundation

/// A day on the calendar with no time and no time zone, such as a `lastSeenDate`.
///
/// Kept apart from `Date` on purpose: "2025-11-05" must read "Nov 05, 2025" for every visitor, and a
/// trip through `Date` and a time zone can shift it by a day (docs/upstream.md §2 lastSeenDate, §3 date).
public struct CalendarDate: Sendable, Hashable, Comparable {
    /// Year, 1...9999.
    public let year: Int
    /// Month, 1...12.
    public let month: Int
    /// Day of the month, valid for that month and year.
    public let day: Int

    /// Creates a date; returns nil unless it exists on the proleptic Gregorian calendar
    /// (`2024-13-01` and `2025-02-29` are rejected, `2024-02-29` is accepted).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CalendarDate.daysInMonth(month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` (docs/upstream.md §2); "15-11-2024" or "2024-1-5" are not dates.
    public init?(iso text: String) {
        let bytes = Array(TextNormalization.trimmed(text).utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = DigitReader.number(bytes, 0, 4),
            let month = DigitReader.number(bytes, 5, 2),
            let day = DigitReader.number(bytes, 8, 2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`, as the backend sends it.
    public var isoString: String {
        DigitReader.padded(year, 4) + "-" + DigitReader.padded(month, 2) + "-" + DigitReader.padded(day, 2)
    }

    /// Orders by year, then month, then day.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 1970-01-01 (negative before), the count used to turn UTC timestamps into dates and back.
    var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil: exact integer arithmetic, no calendar object needed.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of `daysSinceEpoch`); nil outside years 1...9999.
    init?(daysSinceEpoch days: Int) {
        let (year, month, day) = CalendarDate.civil(daysSinceEpoch: days)
        self.init(year: year, month: month, day: day)
    }

    /// Year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's civil_from_days), unchecked.
    static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The calendar day of `date` in UTC (used when a dialect has no lastSeenDate at all).
    init?(utcDayOf date: Date) {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        guard days.isFinite, abs(days) < 4_000_000 else { return nil }
        self.init(daysSinceEpoch: Int(days))
    }

    /// Midnight UTC at the start of this day.
    var startOfDayUTC: Date {
        Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400)
    }

    /// 28–31, with leap years on the Gregorian rule.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Divisible by 4, except centuries not divisible by 400.
    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}

/// Fixed-width ASCII digit reading and writing for the hand-written date formats.
enum DigitReader {
    /// The number written by `count` ASCII digits at `offset`, or nil if any byte is not a digit.
    static func number(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `value` as decimal, left-padded with zeros to `width`.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
