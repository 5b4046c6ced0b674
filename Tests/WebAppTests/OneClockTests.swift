import Foundation
import PetDomain
import TestSupport
import Testing

@testable import WebApp

/// The app's one clock (`DayClock`): report dates, the age of the data and photo freshness all
/// follow the injected `ManualClock`, so a test moves them by hand and none reads the system date.
@Suite("One clock")
struct OneClockTests {
    /// 23:30 in Warsaw on 2025-11-20 (UTC+1): 22:30 UTC, the same day on both calendars.
    static let lateEvening = ISO8601DateFormatter().date(from: "2025-11-20T22:30:00Z") ?? Date()

    /// The report form's date field: its value and its `max` (today in Warsaw).
    static func dateField(_ html: String) -> (value: String?, max: String?) {
        guard let start = html.range(of: #"<input id="report-lastSeenDate""#) else { return (nil, nil) }
        let tag = html[start.lowerBound...].prefix { $0 != ">" }
        func attribute(_ name: String) -> String? {
            guard let found = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[found.upperBound...].prefix { $0 != "\"" })
        }
        return (attribute("value"), attribute("max"))
    }

    @Test func the_report_forms_today_is_warsaws_day_of_the_injected_clock() async throws {
        try await withApp(startDate: Self.lateEvening) { app in
            let before = Self.dateField(try await app.get("/report").text)
            #expect(before.value == "2025-11-20")
            #expect(before.max == "2025-11-20")

            app.clock.advance(by: .seconds(3_600))  // 00:30 on the 21st in Warsaw, still the 20th in UTC

            let after = Self.dateField(try await app.get("/report").text)
            #expect(after.value == "2025-11-21")
            #expect(after.max == "2025-11-21")
        }
    }

    @Test func the_apis_age_is_counted_by_the_injected_clock() async throws {
        try await withApp(configure: { $0.cacheTTLSeconds = 600 }) { app in
            let first = try await app.get("/api/v1/announcements")
            #expect(first.header("Age") == "0")

            app.clock.advance(by: .seconds(42))

            let later = try await app.get("/api/v1/announcements")
            #expect(later.header("Age") == "42")
            #expect(app.stub.requestCount(path: "/api/v1/announcements") == 1)
        }
    }

    @Test func a_photo_stays_fresh_for_its_ttl_on_the_injected_clock() async throws {
        try await withApp(configure: { $0.photoTTLSeconds = 60 }) { app in
            app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
            #expect(try await app.get("/images/phone.jpg?w=320").status == 200)

            app.clock.advance(by: .seconds(59))
            #expect(try await app.get("/images/phone.jpg?w=320").status == 200)
            #expect(app.stub.requestCount(path: "/images/phone.jpg") == 1)

            app.clock.advance(by: .seconds(2))  // past the TTL: revalidated with the upstream
            #expect(try await app.get("/images/phone.jpg?w=320").status == 200)
            #expect(app.stub.requestCount(path: "/images/phone.jpg") == 2)
        }
    }

    @Test func report_days_are_warsaws_and_utcs_of_the_clocks_date() {
        let clock = ManualClock()
        let days = DayClock(startDate: Self.lateEvening, now: clock.reading)
        #expect(days.reportToday.local.isoString == "2025-11-20")
        #expect(days.reportToday.upstream.isoString == "2025-11-20")
        clock.advance(by: .seconds(3_600))
        #expect(days.reportToday.local.isoString == "2025-11-21")
        #expect(days.reportToday.upstream.isoString == "2025-11-20")
        clock.advance(by: .seconds(3_600))
        #expect(days.reportToday.upstream.isoString == "2025-11-21")
    }

    @Test func the_backends_day_changes_at_one_in_winter_and_two_in_summer() throws {
        let winter = try #require(ISO8601DateFormatter().date(from: "2025-11-20T10:00:00Z"))
        let summer = try #require(ISO8601DateFormatter().date(from: "2025-07-01T10:00:00Z"))
        #expect(DayClock.localTime(ofUTCMidnightAfter: winter) == "01:00")
        #expect(DayClock.localTime(ofUTCMidnightAfter: summer) == "02:00")
    }

    @Test func a_day_number_is_always_a_calendar_date() {
        #expect(CalendarDate(localDay: 0).isoString == "1970-01-01")
        #expect(CalendarDate(localDay: 20_412).isoString == "2025-11-20")
        #expect(CalendarDate(localDay: -800_000).isoString == "0001-01-01")
        #expect(CalendarDate(localDay: 9_000_000).isoString == "9999-12-31")
    }
}
