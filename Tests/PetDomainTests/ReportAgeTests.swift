import Foundation
import PetDomain
import Testing

/// docs/report-age.md: a report's age in calendar days of Europe/Warsaw, at the day boundaries.
@Suite struct ReportAgeTests {
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    static func instant(_ iso: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: iso))
    }

    static func today(_ iso: String) throws -> Int {
        LocalDay.number(of: try instant(iso), in: warsaw)
    }

    @Test func report_made_after_local_midnight_is_today_and_one_minute_before_is_yesterday() throws {
        // 2025-11-20 00:30 in Warsaw (UTC+1) is 2025-11-19 23:30 UTC: still the 19th in UTC.
        let today = try Self.today("2025-11-20T12:00:00Z")
        #expect(ReportAge(createdAt: try Self.instant("2025-11-19T23:30:00Z"), today: today, zone: Self.warsaw) == .today)
        #expect(ReportAge(createdAt: try Self.instant("2025-11-19T22:59:00Z"), today: today, zone: Self.warsaw) == .yesterday)
        #expect(ReportAge(createdAt: try Self.instant("2025-11-18T23:00:00Z"), today: today, zone: Self.warsaw) == .yesterday)
        #expect(ReportAge(createdAt: try Self.instant("2025-11-18T22:59:59Z"), today: today, zone: Self.warsaw) == .daysAgo(2))
    }

    @Test func summer_time_moves_the_boundary_to_22_utc() throws {
        let today = try Self.today("2025-07-10T12:00:00Z")
        #expect(ReportAge(createdAt: try Self.instant("2025-07-09T22:00:00Z"), today: today, zone: Self.warsaw) == .today)
        #expect(ReportAge(createdAt: try Self.instant("2025-07-09T21:59:59Z"), today: today, zone: Self.warsaw) == .yesterday)
    }

    @Test func days_are_counted_up_to_thirty_then_the_date_is_shown() throws {
        let today = try Self.today("2025-11-20T12:00:00Z")
        #expect(ReportAge(createdAt: try Self.instant("2025-10-21T12:00:00Z"), today: today, zone: Self.warsaw) == .daysAgo(30))
        let older = ReportAge(createdAt: try Self.instant("2025-10-20T12:00:00Z"), today: today, zone: Self.warsaw)
        #expect(older == .on(try #require(CalendarDate(year: 2025, month: 10, day: 20))))
    }

    @Test func a_report_from_the_future_reads_today() throws {
        let today = try Self.today("2025-11-20T12:00:00Z")
        #expect(ReportAge(createdAt: try Self.instant("2025-11-25T12:00:00Z"), today: today, zone: Self.warsaw) == .today)
    }

    @Test func a_report_is_outdated_after_ninety_whole_days() throws {
        let today = try Self.today("2025-11-20T12:00:00Z")
        #expect(!ReportAge.isOutdated(createdAt: try Self.instant("2025-08-22T12:00:00Z"), today: today, zone: Self.warsaw))  // 90 days
        #expect(ReportAge.isOutdated(createdAt: try Self.instant("2025-08-21T12:00:00Z"), today: today, zone: Self.warsaw))  // 91 days
    }

    @Test func a_day_starts_at_local_midnight() throws {
        let winterDay = try Self.today("2025-11-20T12:00:00Z")
        #expect(LocalDay.start(of: winterDay, in: Self.warsaw) == (try Self.instant("2025-11-19T23:00:00Z")))
        let summerDay = try Self.today("2025-07-10T12:00:00Z")
        #expect(LocalDay.start(of: summerDay, in: Self.warsaw) == (try Self.instant("2025-07-09T22:00:00Z")))
    }
}
