import FastBytes

/// HTTP dates (RFC 9110 §5.6.7) as whole seconds since 1970 (UTC), and the conditional-request
/// rule that uses them: `Last-Modified` / `If-Modified-Since` next to `ETag` / `If-None-Match`.
///
/// Only IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) is read: it is what every current client sends
/// back, and a date that does not parse only means a full 200, never a wrong 304. Integer arithmetic
/// (no `DateFormatter`): the kept-answer path reads the header on the server thread.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since 1970 as an IMF-fixdate, e.g. `Wed, 12 Nov 2025 10:00:00 GMT`.
    public static func format(_ seconds: Int64) -> String {
        let time = UTCTime(seconds)
        let weekday = weekdays[time.weekday]
        guard (1000...9999).contains(time.year) else {
            return "\(weekday), \(padded(time.day)) \(months[time.month - 1]) \(time.year) \(padded(time.hour)):"
                + "\(padded(time.minute)):\(padded(time.second)) GMT"
        }
        // Written into the string's room: a feed sends one per answer, and interpolating the parts
        // cost as much as the rest of its head (callgrind).
        return DigitWriter.string(capacity: 29) { writer in
            writer.put(weekday)
            writer.put(", ")
            writer.put(time.day, digits: 2)
            writer.put(" ")
            writer.put(months[time.month - 1])
            writer.put(" ")
            writer.put(Int(time.year), digits: 4)
            writer.put(" ")
            writer.put(time.hour, digits: 2)
            writer.put(":")
            writer.put(time.minute, digits: 2)
            writer.put(":")
            writer.put(time.second, digits: 2)
            writer.put(" GMT")
        }
    }

    /// The seconds since 1970 of an IMF-fixdate; nil for any other text.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32, bytes[11] == 32, bytes[16] == 32,
            bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 32,
            String(decoding: bytes[26...], as: UTF8.self) == "GMT",
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]), let hour = number(bytes[17..<19]),
            let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
            let monthIndex = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
            (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(monthIndex + 1), day: Int64(day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
    }

    /// Whether a GET/HEAD with these conditional headers may be answered 304 (RFC 9110 §13.2.2):
    /// `If-None-Match` decides when present (`If-Modified-Since` is then ignored); otherwise
    /// `If-Modified-Since` when the answer has a `Last-Modified` no later than it.
    public static func notModified(ifNoneMatch: String?, ifModifiedSince: String?, etag: String?, lastModified: Int64?) -> Bool {
        if let ifNoneMatch {
            return etag.map { EntityTag.matches(ifNoneMatch: ifNoneMatch, etag: $0) } ?? false
        }
        guard let lastModified, let ifModifiedSince, let since = parse(ifModifiedSince) else { return false }
        return lastModified <= since
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private static func padded(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Howard Hinnant's `civil_from_days`: (year, month 1–12, day 1–31) of a day count since 1970.
    static func civil(days: Int64) -> (Int64, Int, Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Howard Hinnant's `days_from_civil`: the inverse of `civil(days:)`.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.floorDivided(by: 400).quotient
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Int64 {
    /// Quotient rounded down and the matching non-negative remainder.
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self >= 0 ? self / divisor : (self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}

/// A moment in UTC as calendar fields (proleptic Gregorian), computed in integers.
public struct UTCTime: Sendable {
    public let year: Int64
    /// 1–12.
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// 0 for Thursday (1970-01-01 was one) to 6 for Wednesday.
    let weekday: Int

    public init(_ seconds: Int64) {
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        (year, month, day) = HTTPDate.civil(days: days)
        weekday = Int(days.floorDivided(by: 7).remainder)
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay / 60 % 60)
        second = Int(secondOfDay % 60)
    }
}
