import Foundation

/// The language-dependent pieces of docs/upstream.md §3, with every word given by the caller (the
/// web app's message catalogs): only the digits, separators and the order of parts are here.
///
/// `Format`'s English functions stay as they are; with English's separators and month names these
/// give the same text (a test compares them).
extension Format {
    /// A date style: the month names and the order of day, month and year.
    public struct DateStyle: Sendable {
        /// Twelve abbreviated month names, January first ("Jan", …; "sty", …).
        public let months: [String]
        /// True for `MMM dd, yyyy` ("Nov 05, 2025", English); false for CLDR's medium
        /// `d MMM y` ("5 lis 2025", Polish: day without zero padding).
        public let monthFirst: Bool

        public init(months: [String], monthFirst: Bool) {
            self.months = months
            self.monthFirst = monthFirst
        }
    }

    /// The calendar date in `style`, with no time-zone shift.
    public static func date(_ date: CalendarDate, style: DateStyle) -> String {
        let month = style.months.indices.contains(date.month - 1) ? style.months[date.month - 1] : String(date.month)
        if style.monthFirst {
            return month + " " + DigitReader.padded(date.day, 2) + ", " + DigitReader.padded(date.year, 4)
        }
        return String(date.day) + " " + month + " " + DigitReader.padded(date.year, 4)
    }

    /// `value` with exactly `decimals` decimals and `separator` as the decimal mark ("2.3", "2,3").
    public static func decimal(_ value: Double, decimals: Int, separator: String) -> String {
        let text = fixed(value, decimals: decimals)
        return separator == "." ? text : text.replacingOccurrences(of: ".", with: separator)
    }

    /// `km` with one decimal and `separator` ("2.3", "0,4"); nil for a negative or non-finite value.
    public static func oneDecimalKilometres(_ km: Double, separator: String) -> String? {
        guard km.isFinite, km >= 0 else { return nil }
        // By hand: every card of a located page has one, and this text stays within Swift's
        // 15-byte small strings (no allocation) for any distance on Earth.
        let tenths = (km * 10).rounded(.toNearestOrAwayFromZero)
        guard tenths < 9e15 else { return decimal(km, decimals: 1, separator: separator) }
        let units = Int(tenths)
        return String(units / 10) + separator + String(units % 10)
    }

    /// "52.2297° N, 21.0122° E" with `separator` as the decimal mark ("52,2297° N, 21,0122° E")
    /// and the given hemisphere letters.
    public static func coordinate(
        _ coordinate: Coordinate,
        separator: String,
        hemispheres: (north: String, south: String, east: String, west: String)
    ) -> String {
        hemisphere(coordinate.latitude, separator: separator, positive: hemispheres.north, negative: hemispheres.south) + ", "
            + hemisphere(coordinate.longitude, separator: separator, positive: hemispheres.east, negative: hemispheres.west)
    }

    private static func hemisphere(_ degrees: Double, separator: String, positive: String, negative: String) -> String {
        let text = fixed(abs(degrees), decimals: 4)
        // A value that rounds to zero is neither south nor west.
        let isNegative = degrees < 0 && text.contains(where: { $0 != "0" && $0 != "." })
        let shown = separator == "." ? text : text.replacingOccurrences(of: ".", with: separator)
        return shown + "° " + (isNegative ? negative : positive)
    }
}
