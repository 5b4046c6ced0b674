import Foundation

@testable import PetDomain

/// The hand-written date parsers: `CalendarDate(iso:)` and both `Timestamp` forms accept only real
/// dates, and what they print (the API's `lastSeenDate`, `createdAt`, `updatedAt`) reads back the same.
enum DatesTarget {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, the range `Timestamp.isoString` prints.
    static let printable = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999)

    static func run(_ bytes: [UInt8]) {
        let input = text(bytes)
        if let day = CalendarDate(iso: input) {
            expect(sameBytes(day.isoString, TextNormalization.trimmed(input)), "\(input) prints as \(day.isoString)")
            expect(CalendarDate(daysSinceEpoch: day.daysSinceEpoch) == day, "day count of \(day.isoString) does not invert")
            expect(CalendarDate(utcDayOf: day.startOfDayUTC) == day, "midnight UTC of \(day.isoString) is another day")
        }
        let iso = Timestamp.parseISO(input)
        let isoOrSQL = Timestamp.parseISOOrSQL(input)
        if let iso { expect(isoOrSQL == iso, "the two timestamp parsers disagree on '\(input)'") }
        for date in [iso, isoOrSQL].compactMap({ $0 }) {
            expect(date.timeIntervalSince1970.isFinite, "timestamp not finite")
            guard printable.contains(date) else { continue }
            let printed = Timestamp.isoString(date)
            expect(Timestamp.parseISO(printed) == date, "'\(input)' prints as \(printed), which reads back as another instant")
            expect(CalendarDate(utcDayOf: date) != nil, "no UTC day for '\(input)'")
        }
    }
}
