import Foundation
import PetDomain
import Testing

/// docs/upstream.md §2 rows lastSeenDate, createdAt, updatedAt.
@Suite struct DateRuleTests {
    @Test func lastSeenDate_is_a_calendar_date_without_time_zone_shift() throws {
        let item = try validItem(["lastSeenDate": "2025-11-05"])
        #expect(item.lastSeenDate == (try day(2025, 11, 5)))
        #expect(item.lastSeenDate.isoString == "2025-11-05")
        #expect(Format.date(item.lastSeenDate) == "Nov 05, 2025")
    }

    @Test(arguments: [
        "2024-13-01", "2025-02-29", "2024-04-31", "15-11-2024", "2024-1-5", "2024/11/15",
        "2024-11-15T10:00:00Z", "yesterday", "2024-00-10",
    ])
    func lastSeenDate_that_is_not_a_real_date_is_invalid(raw: String) throws {
        #expect(try skipReason(["lastSeenDate": raw]) == .invalidLastSeenDate)
    }

    @Test func lastSeenDate_leap_day_is_a_real_date() throws {
        #expect(try validItem(["lastSeenDate": "2024-02-29"]).lastSeenDate == (try day(2024, 2, 29)))
        #expect(CalendarDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
    }

    @Test func lastSeenDate_missing_falls_back_to_the_createdAt_day_in_UTC() throws {
        // Dialect D has no lastSeenDate; 23:30 UTC must stay on the 15th whatever the server zone.
        let item = try validItem(["lastSeenDate": absent, "createdAt": "2025-12-15T23:30:00Z", "updatedAt": absent])
        #expect(item.lastSeenDate == (try day(2025, 12, 15)))
    }

    @Test func lastSeenDate_and_createdAt_both_missing_is_invalid() throws {
        #expect(try skipReason(["lastSeenDate": absent, "createdAt": NSNull()]) == .invalidLastSeenDate)
    }

    @Test(arguments: [
        ("2025-11-18T10:00:00.000Z", utc(2025, 11, 18, 10)),
        ("2025-11-18T10:00:00Z", utc(2025, 11, 18, 10)),
        ("2025-11-18T10:00:00.5Z", utc(2025, 11, 18, 10, milliseconds: 500)),
        ("2025-11-18T10:00:00.123456Z", utc(2025, 11, 18, 10, milliseconds: 123)),
        ("2025-11-18T11:30:00+01:30", utc(2025, 11, 18, 10)),
        ("2025-11-18T05:00:00-0500", utc(2025, 11, 18, 10)),
    ])
    func createdAt_accepts_ISO_8601_with_or_without_fractional_seconds(raw: String, expected: Date) throws {
        let item = try validItem(["createdAt": raw, "updatedAt": "2030-01-01T00:00:00Z"])
        // Milliseconds are the stored precision; compare within half of one.
        #expect(abs(item.createdAt.timeIntervalSince(expected)) < 0.0005)
    }

    @Test(arguments: [
        "2025-11-18 10:00:00", "2025-11-18T10:00:00", "2025-11-18", "18.11.2025 10:00",
        "2025-11-18T25:00:00Z", "2025-02-30T10:00:00Z", "2025-11-18T10:00:00.Z", "", "now",
    ])
    func createdAt_that_is_not_ISO_8601_is_invalid(raw: String) throws {
        let reason = try skipReason(["createdAt": raw])
        // A blank createdAt counts as missing and is derived from lastSeenDate instead.
        #expect(reason == (raw.isEmpty ? nil : .invalidCreatedAt))
    }

    @Test func createdAt_missing_is_derived_from_lastSeenDate_at_midnight_UTC() throws {
        // Seed 000's list sample has no timestamps and is valid.
        let item = try validItem(["createdAt": absent, "updatedAt": absent, "lastSeenDate": "2024-11-15"])
        #expect(item.createdAt == utc(2024, 11, 15))
        #expect(item.updatedAt == item.createdAt)
    }

    @Test func updatedAt_accepts_the_seeded_space_format_as_UTC() throws {
        let item = try validItem(["updatedAt": "2024-12-01 14:24:13"])
        #expect(item.updatedAt == utc(2024, 12, 1, 14, 24, 13))
    }

    @Test func updatedAt_accepts_ISO_8601() throws {
        let item = try validItem(["updatedAt": "2024-12-01T14:24:13.250Z"])
        #expect(item.updatedAt == utc(2024, 12, 1, 14, 24, 13, milliseconds: 250))
    }

    @Test(arguments: ["01/12/2025", "2024-12-01 14:24", "2024-12-01 14:24:13Z+", "2024-12-32 10:00:00"])
    func updatedAt_in_another_format_is_invalid(raw: String) throws {
        #expect(try skipReason(["updatedAt": raw]) == .invalidUpdatedAt)
    }

    @Test func updatedAt_before_createdAt_is_invalid() throws {
        #expect(
            try skipReason([
                "createdAt": "2024-11-20T10:30:00.000Z",
                "updatedAt": "2024-11-20 10:29:59",
            ]) == .updatedBeforeCreated
        )
    }

    @Test func updatedAt_equal_to_createdAt_is_valid() throws {
        let item = try validItem(["createdAt": "2024-11-20T10:30:00.000Z", "updatedAt": "2024-11-20 10:30:00"])
        #expect(item.updatedAt == item.createdAt)
    }

    @Test func updatedAt_missing_equals_createdAt() throws {
        let item = try validItem(["updatedAt": absent])
        #expect(item.updatedAt == utc(2024, 11, 20, 10, 30))
    }

    @Test func calendar_date_parses_and_orders() throws {
        #expect(CalendarDate(iso: "2025-11-18") == (try day(2025, 11, 18)))
        #expect(CalendarDate(iso: "2025-11-18x") == nil)
        #expect((try day(2024, 12, 31)) < (try day(2025, 1, 1)))
        #expect((try day(2025, 1, 2)) > (try day(2025, 1, 1)))
        #expect((try day(33, 1, 2)).isoString == "0033-01-02")
    }
}
