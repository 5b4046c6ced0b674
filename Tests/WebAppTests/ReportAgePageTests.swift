import Foundation
import TestSupport
import Testing

@testable import WebApp

/// docs/report-age.md: report age on cards and details, in both languages, and never yesterday's
/// wording from a cache after the day changes.
@Suite("Report age")
struct ReportAgePageTests {
    /// 23:30 in Warsaw on 2025-11-20 (UTC+1).
    static let lateEvening = ISO8601DateFormatter().date(from: "2025-11-20T22:30:00Z")!

    /// A list of one dog per `createdAt`, ids `age-0`, `age-1`, ….
    static func list(createdAt: [String]) -> String {
        let items = createdAt.enumerated().map { index, created in
            """
            {"id":"age-\(index)","petName":"Pet \(index)","species":"DOG","sex":"MALE","locationLatitude":52.2297,
             "locationLongitude":21.0122,"lastSeenDate":"2025-11-01","photoUrl":"/images/a.jpg","status":"MISSING",
             "createdAt":"\(created)","updatedAt":"\(created)"}
            """
        }
        return #"{"data":["# + items.joined(separator: ",") + "]}"
    }

    static func ages(_ html: String) -> [String] { PageHTML.texts(ofTestID: "report-age", in: html) }

    /// The report ages on the page at `path`.
    static func ages(_ app: TestApp, _ path: String) async throws -> [String] { ages(try await app.get(path).text) }

    @Test func cards_and_details_change_wording_at_midnight_although_the_snapshot_is_the_same() async throws {
        let json = Self.list(createdAt: ["2025-11-20T10:00:00.000Z"])
        try await withApp(listJSON: json, configure: { $0.cacheTTLSeconds = 7_200 }, startDate: Self.lateEvening) { app in
            // Three times each, so the page is kept (rendered pages) and answered by the server (kept answers).
            for _ in 0..<3 {
                let list = try await Self.ages(app, "/pets")
                let details = try await Self.ages(app, "/pets/age-0")
                #expect(list == ["Reported today"])
                #expect(details == ["Reported today"])
            }
            app.clock.advance(by: .seconds(3_600))  // 00:30 on the 21st: same snapshot, new day

            let list = try await Self.ages(app, "/pets")
            let details = try await Self.ages(app, "/pets/age-0")
            let landing = try await Self.ages(app, "/")
            #expect(list == ["Reported yesterday"])
            #expect(details == ["Reported yesterday"])
            #expect(landing == ["Reported yesterday"])
            #expect(app.stub.requestCount(path: "/api/v1/announcements") == 1)
        }
    }

    @Test func polish_cards_use_cldr_plural_forms_of_days() async throws {
        // Seen at 23:30 on 2025-11-20 in Warsaw: yesterday, 2, 5 and 22 days, and 45 days (a date).
        let json = Self.list(createdAt: [
            "2025-11-19T10:00:00.000Z", "2025-11-18T10:00:00.000Z", "2025-11-15T10:00:00.000Z",
            "2025-10-29T10:00:00.000Z", "2025-10-06T10:00:00.000Z",
        ])
        try await withApp(listJSON: json, startDate: Self.lateEvening) { app in
            let polish = Set(try await Self.ages(app, "/pets?lang=pl"))
            #expect(
                polish == [
                    "Zgłoszono wczoraj", "Zgłoszono 2 dni temu", "Zgłoszono 5 dni temu", "Zgłoszono 22 dni temu",
                    "Zgłoszono 6 paź 2025",
                ]
            )
            let english = Set(try await Self.ages(app, "/pets?lang=en"))
            #expect(
                english == [
                    "Reported yesterday", "Reported 2 days ago", "Reported 5 days ago", "Reported 22 days ago",
                    "Reported on Oct 06, 2025",
                ]
            )
        }
    }

    @Test func one_day_reads_dzien_in_polish() throws {
        #expect(try LocalizedFormatTests.polish().counted(.reportAgeDays, 1) == "Zgłoszono 1 dzień temu")
        #expect(try LocalizedFormatTests.english().counted(.reportAgeDays, 1) == "Reported 1 day ago")
    }

    @Test func details_of_a_report_older_than_ninety_days_say_it_may_be_outdated() async throws {
        let json = Self.list(createdAt: ["2025-08-21T10:00:00.000Z", "2025-08-23T10:00:00.000Z"])
        try await withApp(listJSON: json, startDate: Self.lateEvening) { app in
            let old = try await app.get("/pets/age-0").text
            #expect(PageHTML.testIDCount("outdated-notice", in: old) == 1)
            #expect(old.contains("more than 90 days old"))
            let recent = try await app.get("/pets/age-1").text
            #expect(PageHTML.testIDCount("outdated-notice", in: recent) == 0)
            let polish = try await app.get("/pets/age-0?lang=pl").text
            #expect(polish.contains("ma ponad 90 dni"))
            // The list keeps the old report.
            let list = try await app.get("/pets").text
            #expect(PageHTML.petIDs(list).contains("age-0"))
        }
    }
}
