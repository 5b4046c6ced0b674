import Foundation

/// Hand-written parsing and printing of the timestamp formats in docs/upstream.md §2.
///
/// No `DateFormatter`/`ISO8601DateFormatter`: creating one per item is slow (docs/performance.md), and fixed
/// arithmetic cannot be affected by the server's time zone or locale.
enum Timestamp {
    /// ISO 8601 date-time with a zone designator, with or without fractional seconds:
    /// `2025-11-18T10:00:00Z`, `2025-11-18T10:00:00.000Z`, `2025-11-18T11:00:00+01:00` (createdAt).
    static func parseISO(_ text: String) -> Date? {
        parse(text, allowSpaceSeparatedUTC: false)
    }

    /// ISO 8601 as above, or the seeded rows' `yyyy-MM-dd HH:mm:ss` read as UTC (updatedAt).
    static func parseISOOrSQL(_ text: String) -> Date? {
        parse(text, allowSpaceSeparatedUTC: true)
    }

    /// `2025-11-18T10:00:00.000Z`: the current backend's shape, milliseconds and `Z` (docs/upstream.md §4).
    static func isoString(_ date: Date) -> String {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let clamped = Int(max(min(totalMilliseconds, 253_402_300_799_999), -62_135_596_800_000))
        let (days, millisecondOfDay) = floorDivision(clamped, 86_400_000)
        // The clamp above keeps `days` within years 1...9999, so the fallback is never used.
        let dayText = CalendarDate(daysSinceEpoch: days)?.isoString ?? "1970-01-01"
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        return dayText + "T" + DigitReader.padded(hour, 2) + ":"
            + DigitReader.padded(minute, 2) + ":" + DigitReader.padded(second, 2) + "."
            + DigitReader.padded(millisecond, 3) + "Z"
    }

    private static func parse(_ text: String, allowSpaceSeparatedUTC: Bool) -> Date? {
        let bytes = Array(TextNormalization.trimmed(text).utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = DigitReader.number(bytes, 0, 4), let month = DigitReader.number(bytes, 5, 2),
            let dayOfMonth = DigitReader.number(bytes, 8, 2), let hour = DigitReader.number(bytes, 11, 2),
            let minute = DigitReader.number(bytes, 14, 2), let second = DigitReader.number(bytes, 17, 2),
            let day = CalendarDate(year: year, month: month, day: dayOfMonth),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let separator = bytes[10]
        let isSpaceForm = separator == UInt8(ascii: " ")
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || (isSpaceForm && allowSpaceSeparatedUTC)
        else { return nil }

        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let digitsStart = index
            while index < bytes.count, let digit = DigitReader.number(bytes, index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
        }

        let offsetSeconds: Int
        if isSpaceForm {
            // The seeded rows' format has no zone and is UTC (docs/upstream.md §1); nothing may follow.
            guard index == bytes.count else { return nil }
            offsetSeconds = 0
        } else {
            guard let offset = zoneOffset(bytes, from: index) else { return nil }
            offsetSeconds = offset
        }
        let seconds = day.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Milliseconds are what the backend stores; rounding there keeps round trips exact.
        let milliseconds = (fraction * 1000).rounded()
        return Date(timeIntervalSince1970: Double(seconds) + milliseconds / 1000)
    }

    /// Seconds east of UTC for `Z`, `±HH:MM` or `±HHMM` ending the text; nil for anything else,
    /// including no designator at all (a zone-less ISO time would be ambiguous).
    private static func zoneOffset(_ bytes: [UInt8], from index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        let marker = bytes[index]
        if marker == UInt8(ascii: "Z") || marker == UInt8(ascii: "z") {
            return index + 1 == bytes.count ? 0 : nil
        }
        guard marker == UInt8(ascii: "+") || marker == UInt8(ascii: "-"),
            let hours = DigitReader.number(bytes, index + 1, 2), hours < 24
        else { return nil }
        let minutes: Int?
        switch bytes.count - index {
        case 6 where bytes[index + 3] == UInt8(ascii: ":"): minutes = DigitReader.number(bytes, index + 4, 2)
        case 5: minutes = DigitReader.number(bytes, index + 3, 2)
        default: minutes = nil
        }
        guard let minutes, minutes < 60 else { return nil }
        let offset = hours * 3600 + minutes * 60
        return marker == UInt8(ascii: "-") ? -offset : offset
    }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
