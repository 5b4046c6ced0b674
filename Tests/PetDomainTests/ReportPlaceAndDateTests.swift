import Foundation
import PetDomain
import Testing

/// Coordinates, microchip and the last-seen date of docs/report-validation.md, with their boundaries.
@Suite struct ReportPlaceAndDateTests {
    @Test(arguments: [("90", 90.0), ("-90", -90.0), ("52,23", 52.23), ("+0.5", 0.5), ("-0", 0.0), ("4.5e1", 45.0)])
    func report_accepts_a_latitude_within_90_degrees(raw: String, degrees: Double) throws {
        #expect(try acceptedReport(reportDraft { $0.locationLatitude = raw }).coordinate.latitude == degrees)
    }

    @Test(arguments: ["90.0001", "-90.0001", "180"])
    func report_refuses_a_latitude_beyond_90_degrees(raw: String) {
        let error = onlyError(reportDraft { $0.locationLatitude = raw })
        #expect(error == ReportFieldError(field: "locationLatitude", code: .invalidFormat, problem: .outOfRange(min: -90, max: 90)))
        #expect(error?.message == "locationLatitude must be between -90 and 90")
    }

    @Test func report_longitude_limit_is_180_degrees() throws {
        #expect(try acceptedReport(reportDraft { $0.locationLongitude = "-180" }).coordinate.longitude == -180)
        #expect(onlyError(reportDraft { $0.locationLongitude = "180.0001" })?.problem == .outOfRange(min: -180, max: 180))
    }

    @Test(arguments: ["nan", "inf", "-infinity", "0x1p3", "52.1.2", "52,1,2", "52,1.2", "N52", "1e999", "52°"])
    func report_refuses_a_coordinate_that_is_not_a_plain_number(raw: String) {
        #expect(onlyError(reportDraft { $0.locationLongitude = raw })?.problem == .notANumber)
    }

    @Test(arguments: [
        ("123456789012345", "123456789012345"), ("12345 67890 12345", "123456789012345"),
        ("12345–67890–12345", "123456789012345"), ("1", "1"),
    ])
    func report_microchip_keeps_only_digits(raw: String, digits: String) throws {
        #expect(try acceptedReport(reportDraft { $0.microchipNumber = raw }).microchipNumber == digits)
    }

    @Test func report_refuses_a_microchip_of_16_digits() {
        let error = onlyError(reportDraft { $0.microchipNumber = "1234567890123456" })
        #expect(error == ReportFieldError(field: "microchipNumber", code: .invalidFormat, problem: .tooManyDigits(max: 15)))
    }

    @Test(arguments: ["12345A", "---", "１２３", "12.34", "+48123"])
    func report_refuses_a_microchip_with_other_characters(raw: String) {
        #expect(onlyError(reportDraft { $0.microchipNumber = raw })?.problem == .digitsOnly)
    }

    @Test(arguments: [
        ("123456789012345", "12345-67890-12345"), ("12345678", "12345-678"),
        ("12345", "12345"), ("1234567890", "12345-67890"),
    ])
    func report_microchip_display_groups_by_five(digits: String, display: String) throws {
        #expect(try acceptedReport(reportDraft { $0.microchipNumber = digits }).microchipDisplay == display)
    }

    @Test func report_without_microchip_has_no_display() throws {
        #expect(try acceptedReport(reportDraft { $0.microchipNumber = "" }).microchipDisplay == nil)
    }

    @Test(arguments: ["2024-13-01", "2025-02-29", "20-11-2026", "2026-1-5", "yesterday", "2026-11-20T10:00"])
    func report_refuses_a_last_seen_date_that_is_not_a_real_day(raw: String) {
        #expect(onlyError(reportDraft { $0.lastSeenDate = raw })?.problem == .invalidDate)
    }

    @Test func report_accepts_today_and_refuses_tomorrow() throws {
        #expect(try acceptedReport(reportDraft { $0.lastSeenDate = " 2026-11-26 " }).lastSeenDate == reportToday)
        let error = onlyError(reportDraft { $0.lastSeenDate = "2026-11-27" })
        #expect(error == ReportFieldError(field: "lastSeenDate", code: .invalidFormat, problem: .dateInFuture))
    }

    @Test func report_refuses_local_today_while_the_backend_still_lives_on_yesterday() throws {
        // 00:30 in Warsaw on the 26th is 23:30 UTC on the 25th: the backend would refuse "today".
        let draft = reportDraft { $0.lastSeenDate = "2026-11-26" }
        let yesterday = try day(2026, 11, 25)
        let errors = reportErrors(draft, localToday: reportToday, upstreamToday: yesterday)
        #expect(
            errors == [
                ReportFieldError(
                    field: "lastSeenDate",
                    code: .invalidFormat,
                    problem: .dateAfterUpstreamToday(serverToday: yesterday)
                )
            ]
        )
        #expect(errors.first?.message.contains("2026-11-25") == true)
        let accepted = ReportValidation.validate(
            reportDraft { $0.lastSeenDate = "2026-11-25" },
            localToday: reportToday,
            upstreamToday: yesterday
        )
        #expect((try? accepted.get())?.lastSeenDate == yesterday)
    }

    @Test func report_says_future_when_the_visitor_is_behind_the_backend() throws {
        // Evening in America: UTC is already on the 27th, the visitor's 27th is still tomorrow.
        let errors = reportErrors(
            reportDraft { $0.lastSeenDate = "2026-11-27" },
            localToday: reportToday,
            upstreamToday: try day(2026, 11, 27)
        )
        #expect(errors.map(\.problem) == [.dateInFuture])
    }

    @Test func calendar_day_of_an_instant_depends_on_the_time_zone() throws {
        let instant = utc(2026, 11, 25, 23, 30)
        let warsaw = try #require(TimeZone(identifier: "Europe/Warsaw"))
        let gmt = try #require(TimeZone(identifier: "UTC"))
        #expect(CalendarDate.day(of: instant, in: warsaw) == reportToday)
        #expect(CalendarDate.day(of: instant, in: gmt) == (try day(2026, 11, 25)))
        // Summer time: 01:30 in Warsaw (UTC+2) is still the previous day in UTC.
        let summer = utc(2026, 7, 14, 23, 30)
        #expect(CalendarDate.day(of: summer, in: warsaw) == (try day(2026, 7, 15)))
        #expect(CalendarDate.day(of: summer, in: gmt) == (try day(2026, 7, 14)))
    }
}
