import Foundation
import PetDomain

/// The app's one clock, with the Warsaw calendar: the calendar day pages are worded for ("reported
/// today", docs/report-age.md), a report's dates (docs/report-validation.md), the age of the data
/// and the freshness of photos and tiles. It reads the app's one injected monotonic clock
/// (`PetSpotApp.build(now:)`): the wall-clock date is the date at startup plus the monotonic time
/// since, so a test that moves its `ManualClock` past midnight moves "today" too, and nothing reads
/// the system date per request.
///
/// Every cache that holds words about "today" is keyed by `reuseKey(generation:)`, which changes
/// with the snapshot *and* with the day: kept card fragments and the response cache's entries,
/// whose targets the server's hook also stops giving at `endOfToday`.
struct DayClock: Sendable {
    /// The zone whose midnight starts a new day: the service is Polish (docs/upstream.md §3).
    static let zone = TimeZone(identifier: "Europe/Warsaw") ?? TimeZone(secondsFromGMT: 3_600) ?? .gmt
    /// The wall-clock date at `startInstant`.
    let startDate: Date
    let startInstant: ContinuousClock.Instant
    let now: @Sendable () -> ContinuousClock.Instant

    /// A day clock that reads `now`, taking `startDate` as the date of its current reading.
    init(startDate: Date, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.startDate = startDate
        self.startInstant = now()
        self.now = now
    }

    /// The wall-clock date of the current reading.
    var date: Date {
        let elapsed = startInstant.duration(to: now()).components
        return startDate.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    /// The current day's number (`LocalDay.number`).
    var today: Int { LocalDay.number(of: date, in: DayClock.zone) }

    /// Today on the two calendars a report's dates are checked against (docs/report-validation.md):
    /// the visitor's, Warsaw's, and the backend's, UTC's.
    var reportToday: (local: CalendarDate, upstream: CalendarDate) {
        let date = self.date
        return (CalendarDate(localDay: LocalDay.number(of: date, in: DayClock.zone)), CalendarDate(localDay: LocalDay.number(of: date, in: .gmt)))
    }

    /// "01:00" or "02:00": Warsaw's time at the next UTC midnight, when the backend's date changes.
    var localTimeOfNextUTCMidnight: String { DayClock.localTime(ofUTCMidnightAfter: date) }

    /// Warsaw's time of day, `HH:MM`, at the first UTC midnight after `now`.
    static func localTime(ofUTCMidnightAfter now: Date) -> String {
        let day = 86_400.0
        let next = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / day).rounded(.down) * day + day)
        let minutes = zone.secondsFromGMT(for: next) / 60
        let hour = (minutes / 60 + 24) % 24
        let minute = (minutes % 60 + 60) % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// The age of a report made at `createdAt`, on `day`.
    static func age(of createdAt: Date, on day: Int) -> ReportAge {
        ReportAge(createdAt: createdAt, today: day, zone: zone)
    }

    /// A number that grows with the snapshot generation and, within one, with the day: what caches
    /// of worded pages compare instead of the generation (they drop entries when it changes, and
    /// never go back to a smaller one). Days since 1970 stay below 2^20 until the year 4840.
    static func reuseKey(generation: Int, day: Int) -> Int {
        generation << 20 | (day & 0xFFFFF)
    }

    /// The monotonic instant the current day ends: the latest a kept answer may be reused.
    var endOfToday: ContinuousClock.Instant {
        let reading = now()
        let nextDay = LocalDay.start(of: today + 1, in: DayClock.zone)
        let seconds = max(0, nextDay.timeIntervalSince(date))
        return reading + .milliseconds(Int64(seconds * 1000))
    }
}
