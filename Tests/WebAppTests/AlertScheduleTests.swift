import Foundation
import TestSupport
import Testing
import WebApp

/// When alert mails go out (docs/alerts.md "Frequency"), on the app's own clock moved by hand: a daily
/// digest at 08:00 Warsaw time, an instant alert at most once in 10 minutes, and a report's matches.
@Suite("E-mail alert schedule")
struct AlertScheduleTests {
    /// 2026-12-01 10:00 UTC: 11:00 in Warsaw (winter time, UTC+1).
    static let start = Date(timeIntervalSince1970: 1_796_119_200)

    /// Subscribes `email` with `fields` (a search or a pet) and confirms it through the mail's link.
    static func subscribeAndConfirm(_ app: TestApp, mailbox: AlertMailbox, fields: [(String, String)]) async throws {
        var parts = URLComponents()
        parts.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        let body = Data((parts.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        let answer = try await post(try app.url("/alerts"), body: body, contentType: "application/x-www-form-urlencoded")
        #expect(answer.status == 200)
        await app.app.deliverAlerts()
        let confirmation = try #require(try mailbox.mails().last)
        let link = try #require(confirmation.link("mail-confirm-link"))
        let confirmed = try await post(
            try app.url(ReceivedMail.pathAndQuery(link)),
            body: Data("confirm=1".utf8),
            contentType: "application/x-www-form-urlencoded"
        )
        #expect(confirmed.text.contains("data-testid=\"alert-active\""))
    }

    static let search = "/pets.atom?lat=52.2300&lng=21.0100&range=5&lang=pl"

    /// An app on `pets` at `start`, its first list recorded, with `fields` subscribed and confirmed.
    static func withSubscription(
        pets: [[String: Any]] = [AlertFlowTests.near],
        _ fields: [(String, String)],
        _ body: (TestApp, AlertMailbox) async throws -> Void
    ) async throws {
        let mailbox = AlertMailbox.make()
        try await withApp(listJSON: PageJSON.list(pets), configure: { $0.mailDirectory = mailbox.folder.path }, startDate: start) { app in
            await app.app.deliverAlerts()
            try await subscribeAndConfirm(app, mailbox: mailbox, fields: fields)
            try await body(app, mailbox)
        }
    }

    @Test func a_daily_digest_goes_out_at_eight_in_warsaw_with_the_days_pets() async throws {
        try await AlertScheduleTests.withSubscription([("search", AlertScheduleTests.search), ("email", "dzien@example.com"), ("frequency", "daily")])
        { app, mailbox in
            app.stub.setList(PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("day-1", name: "Łatka")]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1)
            // 07:50 the next morning in Warsaw: not yet.
            app.clock.advance(by: .seconds(20 * 3600 + 50 * 60))
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1)
            // 08:05: the digest.
            app.clock.advance(by: .seconds(15 * 60))
            await app.app.deliverAlerts()
            let mails = try mailbox.mails()
            try #require(mails.count == 2)
            let digest = mails[1]
            #expect(digest.header("Message-ID")?.hasPrefix("<digest.") == true)
            #expect(digest.html.contains("data-pet-id=\"day-1\""))
            #expect(digest.html.contains("lang=\"pl\""))
            // The Polish subject is RFC 2047 encoded words, ASCII on the wire.
            #expect(digest.header("Subject")?.hasPrefix("=?UTF-8?") == true)
            #expect(digest.raw.allSatisfy { $0 < 128 })
        }
    }

    @Test func an_instant_subscription_gets_at_most_one_mail_in_ten_minutes() async throws {
        try await AlertScheduleTests.withSubscription([
            ("search", AlertScheduleTests.search), ("email", "teraz@example.com"), ("frequency", "instant"),
        ]) { app, mailbox in
            app.stub.setList(PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("first", name: "One")]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 2)
            app.clock.advance(by: .seconds(60))
            app.stub.setList(
                PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("first", name: "One"), AlertFlowTests.pet("second", name: "Two")])
            )
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 2)
            app.clock.advance(by: .seconds(9 * 60 + 5))
            await app.app.deliverAlerts()
            let mails = try mailbox.mails()
            try #require(mails.count == 3)
            #expect(mails[2].html.contains("data-pet-id=\"second\""))
            #expect(!mails[2].html.contains("data-pet-id=\"first\""))
        }
    }

    @Test func a_followed_report_is_mailed_a_new_possible_match_with_its_reasons() async throws {
        let lost = AlertFlowTests.pet("lost-1", name: "Burek")
        try await AlertScheduleTests.withSubscription(pets: [lost], [("pet", "lost-1"), ("email", "owner@example.com")]) { app, mailbox in
            let found = AlertFlowTests.pet("found-1", name: "Znaleziony", latitude: 52.25, longitude: 21.03, status: "FOUND")
            let otherKind = AlertFlowTests.pet("lost-2", name: "Another lost", latitude: 52.25, longitude: 21.03)
            app.stub.setList(PageJSON.list([lost, found, otherKind]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            let mails = try mailbox.mails()
            try #require(mails.count == 2)
            #expect(mails[1].html.contains("data-pet-id=\"found-1\""))
            #expect(!mails[1].html.contains("data-pet-id=\"lost-2\""))
            #expect(mails[1].text.contains("km"))
            #expect(mails[1].header("List-Unsubscribe") != nil)
        }
    }

    /// "We are reunited" stops what was owed for the pet (docs/sightings.md "Reunited"): the digest due the next morning
    /// leaves it out, and it is no longer a possible match of a found report; the other pets of the day still go out.
    @Test func a_pet_reunited_before_its_digest_is_left_out_of_it_and_of_the_matches() async throws {
        try await AlertScheduleTests.withSubscription([("search", AlertScheduleTests.search), ("email", "rano@example.com"), ("frequency", "daily")])
        { app, mailbox in
            let home = AlertFlowTests.pet("home-1", name: "Domowy", latitude: 52.25, longitude: 21.03)
            let stays = AlertFlowTests.pet("day-1", name: "Łatka", latitude: 52.25, longitude: 21.03)
            let found = AlertFlowTests.pet("found-1", name: "Znaleziony", latitude: 52.25, longitude: 21.03, status: "FOUND")
            app.stub.setList(PageJSON.list([AlertFlowTests.near, home, stays, found]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1, "a daily subscription waits for 08:00")
            let matchesBefore = try await app.get("/pets/found-1/matches").text
            #expect(matchesBefore.contains("/pets/home-1") && matchesBefore.contains("/pets/day-1"))

            // The owner proves the code as the backend answers a right one (product spec §10) and marks the pet home.
            app.stub.setWrite(
                path: "/api/v1/announcements/home-1/photos",
                status: 400,
                body: #"{"error":{"code":"MISSING_FILE","message":"No file uploaded"}}"#
            )
            let signedIn = try await post(
                try app.url("/pets/home-1/sightings"),
                body: Data("code=123456".utf8),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(signedIn.status == 303)
            let session = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
            let reunited = try await post(
                try app.url("/pets/home-1/sightings/reunited"),
                body: Data("reunited=1".utf8),
                contentType: "application/x-www-form-urlencoded",
                headers: ["Cookie": session]
            )
            #expect(reunited.status == 303)
            let matchesAfter = try await app.get("/pets/found-1/matches").text
            #expect(!matchesAfter.contains("/pets/home-1"), "a pet at home is no possible match")
            #expect(matchesAfter.contains("/pets/day-1"))

            // 08:05 the next morning in Warsaw: the digest, without the pet at home.
            app.clock.advance(by: .seconds(21 * 3600 + 5 * 60))
            await app.app.deliverAlerts()
            let mails = try mailbox.mails()
            try #require(mails.count == 2)
            #expect(mails[1].html.contains("data-pet-id=\"day-1\""))
            #expect(mails[1].html.contains("data-pet-id=\"found-1\""))
            #expect(!mails[1].html.contains("home-1"), "no alert is owed for a reunited pet")
        }
    }
}
