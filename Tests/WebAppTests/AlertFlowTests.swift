import Foundation
import TestSupport
import Testing
import WebApp

/// E-mail alerts end to end on one replica (docs/alerts.md): the real server over loopback, its memory
/// store, and its mails written into a Maildir that the test reads as a mail program would.
@Suite("E-mail alerts")
struct AlertFlowTests {
    /// Warsaw's centre, and pets near it and far from it.
    static var near: [String: Any] { PageJSON.item("near-1", name: "Burek", overrides: ["locationLatitude": 52.231, "locationLongitude": 21.012]) }
    static func pet(_ id: String, name: String, latitude: Double = 52.232, longitude: Double = 21.013, status: String = "MISSING") -> [String: Any] {
        PageJSON.item(
            id,
            name: name,
            overrides: [
                "locationLatitude": latitude, "locationLongitude": longitude, "status": status, "createdAt": "2025-11-12T10:00:00.000Z",
                "updatedAt": "2025-11-12T10:00:00.000Z",
            ]
        )
    }

    /// The form body of a subscribe, as the list page's form sends it.
    static func subscribeBody(search: String, email: String, frequency: String = "instant") -> Data {
        var parts = URLComponents()
        parts.queryItems = [
            URLQueryItem(name: "search", value: search), URLQueryItem(name: "email", value: email), URLQueryItem(name: "frequency", value: frequency),
        ]
        return Data((parts.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
    }

    /// The hidden `search` value of a page's alert form.
    static func search(in page: String) throws -> String {
        let start = try #require(page.range(of: "name=\"search\" value=\""))
        let rest = page[start.upperBound...]
        return String(rest[..<(try #require(rest.firstIndex(of: "\"")))]).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func a_located_list_offers_the_alert_form_with_its_feed_search_and_an_unlocated_one_asks_for_a_place() async throws {
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near])) { app in
            let located = try await app.get("/pets?lat=52.23&lng=21.01&range=5&species=dog")
            #expect(located.status == 200)
            #expect(located.text.contains("data-testid=\"alert-form\""))
            let search = try AlertFlowTests.search(in: located.text)
            // The alert's search is the feed's: the same canonical link the page's feed link carries.
            #expect(located.text.contains("href=\"\(search.replacingOccurrences(of: "&", with: "&amp;"))\" type=\"application/atom+xml\""))
            #expect(search.hasPrefix("/pets.atom?"))
            let unlocated = try await app.get("/pets")
            #expect(!unlocated.text.contains("data-testid=\"alert-form\""))
            #expect(unlocated.text.contains("data-testid=\"alert-needs-place\""))
            let map = try await app.get("/map?lat=52.23&lng=21.01")
            #expect(map.text.contains("data-testid=\"alert-form\""))
        }
    }

    @Test func subscribe_confirm_alert_and_one_click_stop_as_a_mail_provider_sends_it() async throws {
        let mailbox = AlertMailbox.make()
        let logs = LogCapture()
        let email = "ala.kot@example.com"
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near]), configure: { $0.mailDirectory = mailbox.folder.path }, logs: logs) { app in
            let page = try await app.get("/pets?lat=52.23&lng=21.01&range=5")
            let search = try AlertFlowTests.search(in: page.text)
            // The first list the store sees owes nothing (near-1 was there before anyone subscribed).
            await app.app.deliverAlerts()

            let answer = try await post(
                try app.url("/alerts"),
                body: AlertFlowTests.subscribeBody(search: search, email: email),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(answer.status == 200)
            #expect(answer.text.contains("data-testid=\"alert-pending\""))
            #expect(answer.header("Cache-Control")?.contains("no-store") == true)
            await app.app.deliverAlerts()
            var mails = try mailbox.mails()
            if mails.count != 1 { print(logs.lines.joined(separator: "\n")) }
            try #require(mails.count == 1)
            let confirmation = mails[0]
            #expect(confirmation.header("To")?.contains(email) == true)
            #expect(confirmation.header("Auto-Submitted") == "auto-generated")
            #expect(confirmation.header("List-Unsubscribe") == nil)
            let confirmLink = try #require(confirmation.link("mail-confirm-link"))
            #expect(confirmLink.hasPrefix("https://petspot.example/alerts/confirm/"))
            #expect(confirmation.text.contains(confirmLink))

            // A new pet before the confirmation owes nothing: only the confirmation mail is ever sent.
            app.stub.setList(PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("early-1", name: "Early")]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1)

            // A GET (a mail scanner opening the link) shows a button and confirms nothing.
            let shown = try await app.get(ReceivedMail.pathAndQuery(confirmLink))
            #expect(shown.status == 200)
            #expect(shown.text.contains("data-testid=\"alert-confirm\""))
            let confirmed = try await post(
                try app.url(ReceivedMail.pathAndQuery(confirmLink)),
                body: Data("confirm=yes".utf8),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(confirmed.status == 200)
            #expect(confirmed.text.contains("data-testid=\"alert-active\""))

            // A pet entering the list within the area, and one outside it: one alert, of the first only.
            // A line break in an upstream name must not forge a line of the text part, which prints values unescaped.
            let hostile = "<script>alert(1)</script> Reksio\r\n\r\nConfirm your address: https://evil.example\u{202E}"
            app.stub.setList(
                PageJSON.list([
                    AlertFlowTests.near, AlertFlowTests.pet("early-1", name: "Early"), AlertFlowTests.pet("new-1", name: hostile),
                    AlertFlowTests.pet("far-1", name: "Far", latitude: 50.06, longitude: 19.94),
                ])
            )
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            mails = try mailbox.mails()
            if mails.count != 2 { print(logs.lines.joined(separator: "\n")) }
            try #require(mails.count == 2)
            let alert = try #require(mails.first { $0.header("Message-ID")?.contains("alert.") == true })
            #expect(alert.html.contains("data-pet-id=\"new-1\""))
            #expect(!alert.html.contains("data-pet-id=\"far-1\""))
            #expect(!alert.html.contains("data-pet-id=\"early-1\""))
            #expect(!alert.html.contains("<script>alert(1)</script>"))
            #expect(alert.html.contains("&lt;script&gt;"))
            #expect(alert.text.contains("Reksio"))
            #expect(!alert.text.contains("\nConfirm your address"))
            #expect(!alert.text.contains("\u{202E}"))
            #expect(alert.html.contains("https://petspot.example/pets/new-1"))
            #expect(alert.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
            let unsubscribe = try #require(alert.header("List-Unsubscribe"))
            #expect(unsubscribe.hasPrefix("<https://petspot.example/alerts/stop/"))
            let stopLink = String(unsubscribe.dropFirst().dropLast())

            // The same pets again (a restart of the list, a refresh): nothing owed twice.
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 2)

            // RFC 8058: a POST of exactly this body, no cookie, no Origin; 200, never a redirect.
            let stopped = try await post(
                try app.url(ReceivedMail.pathAndQuery(stopLink)),
                body: Data("List-Unsubscribe=One-Click".utf8),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(stopped.status == 200)
            #expect(stopped.text.contains("data-testid=\"alert-stopped\""))
            app.stub.setList(
                PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("new-1", name: "x"), AlertFlowTests.pet("after-stop", name: "Late")])
            )
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 2)

            // The address never reaches a log line.
            #expect(!logs.lines.contains { $0.contains(email) })
            #expect(!logs.lines.contains { $0.contains(String(stopLink.split(separator: "/").last ?? "")) })
        }
    }

    @Test func the_subscribe_answer_is_the_same_for_a_new_and_a_known_address() async throws {
        let mailbox = AlertMailbox.make()
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near]), configure: { $0.mailDirectory = mailbox.folder.path }) { app in
            let search = "/pets.atom?lat=52.2300&lng=21.0100&range=5&lang=en"
            var bodies: [String] = []
            for _ in 0..<4 {
                let answer = try await post(
                    try app.url("/alerts"),
                    body: AlertFlowTests.subscribeBody(search: search, email: "same@example.com"),
                    contentType: "application/x-www-form-urlencoded"
                )
                #expect(answer.status == 200)
                bodies.append(answer.text)
            }
            #expect(Set(bodies).count == 1)
            await app.app.deliverAlerts()
            // At most three confirmation mails per address a day.
            #expect(try mailbox.mails().count == 3)
        }
    }

    @Test func a_bad_address_keeps_what_was_typed_and_names_the_problem() async throws {
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near])) { app in
            let answer = try await post(
                try app.url("/alerts"),
                body: AlertFlowTests.subscribeBody(search: "/pets.atom?lat=52.2300&lng=21.0100&range=5", email: "not-an-address"),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(answer.status == 422)
            #expect(answer.text.contains("value=\"not-an-address\""))
            #expect(answer.text.contains("data-testid=\"alert-form\""))
            #expect(answer.text.contains("data-testid=\"error-message\""))
        }
    }

    @Test func an_unknown_token_is_a_404_page_and_a_get_of_the_stop_link_changes_nothing() async throws {
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near])) { app in
            let unknown = try await app.get("/alerts/stop/0123456789abcdef0123456789abcdef")
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("data-testid=\"alert-unknown\""))
            let malformed = try await app.get("/alerts/manage/x")
            #expect(malformed.status == 404)
        }
    }

    @Test func this_was_not_me_keeps_the_address_from_every_later_mail() async throws {
        let mailbox = AlertMailbox.make()
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near]), configure: { $0.mailDirectory = mailbox.folder.path }) { app in
            let search = "/pets.atom?lat=52.2300&lng=21.0100&range=5&lang=en"
            let form = AlertFlowTests.subscribeBody(search: search, email: "Not.Me@example.com")
            _ = try await post(try app.url("/alerts"), body: form, contentType: "application/x-www-form-urlencoded")
            await app.app.deliverAlerts()
            let never = try #require(try mailbox.mails().first?.link("mail-never-link"))
            let shown = try await app.get(ReceivedMail.pathAndQuery(never))
            #expect(shown.text.contains("data-testid=\"alert-never-form\""))
            let done = try await post(
                try app.url(ReceivedMail.pathAndQuery(never)),
                body: Data("never=1".utf8),
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(done.text.contains("data-testid=\"alert-never\""))
            // Asked again, in another spelling of the address: the same answer, and no mail.
            let again = AlertFlowTests.subscribeBody(search: search, email: " not.me@EXAMPLE.com ")
            let answer = try await post(try app.url("/alerts"), body: again, contentType: "application/x-www-form-urlencoded")
            #expect(answer.text.contains("data-testid=\"alert-pending\""))
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1)
        }
    }

    @Test func forget_my_address_on_the_manage_page_erases_the_subscription_and_its_links() async throws {
        let mailbox = AlertMailbox.make()
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near]), configure: { $0.mailDirectory = mailbox.folder.path }) { app in
            await app.app.deliverAlerts()
            let search = "/pets.atom?lat=52.2300&lng=21.0100&range=5&lang=en"
            let form = AlertFlowTests.subscribeBody(search: search, email: "forget.me@example.com")
            _ = try await post(try app.url("/alerts"), body: form, contentType: "application/x-www-form-urlencoded")
            await app.app.deliverAlerts()
            let confirmLink = try #require(try mailbox.mails().first?.link("mail-confirm-link"))
            let confirmed = try await post(
                try app.url(ReceivedMail.pathAndQuery(confirmLink)),
                body: Data("confirm=yes".utf8),
                contentType: "application/x-www-form-urlencoded"
            )
            // `<a href="…" data-testid="alert-manage-link">` on the confirmed page.
            let beforeLink = try #require(confirmed.text.components(separatedBy: "\" data-testid=\"alert-manage-link\"").first)
            let manage = ReceivedMail.pathAndQuery(try #require(beforeLink.components(separatedBy: "href=\"").last))
            #expect(manage.hasPrefix("/alerts/manage/"))
            let page = try await app.get(manage)
            #expect(page.text.contains("data-testid=\"alert-forget\""))
            let forgotten = try await post(try app.url(manage), body: Data("forget=1".utf8), contentType: "application/x-www-form-urlencoded")
            #expect(forgotten.status == 200)
            #expect(forgotten.text.contains("data-testid=\"alert-forgotten\""))
            // The link of the erased subscription leads nowhere, and a new pet in the area owes nothing.
            #expect(try await app.get(manage).status == 404)
            app.stub.setList(PageJSON.list([AlertFlowTests.near, AlertFlowTests.pet("after-forget", name: "Late")]))
            await app.app.dataChanged()
            await app.app.deliverAlerts()
            #expect(try mailbox.mails().count == 1)
            // Nothing of the address is left, not even a block: asking again starts over with a confirmation.
            _ = try await post(try app.url("/alerts"), body: form, contentType: "application/x-www-form-urlencoded")
            await app.app.deliverAlerts()
            let mails = try mailbox.mails()
            #expect(mails.count == 2)
            #expect(mails.last?.link("mail-confirm-link") != confirmLink)
        }
    }

    @Test func one_client_address_may_ask_ten_times_an_hour() async throws {
        try await withApp(listJSON: PageJSON.list([AlertFlowTests.near])) { app in
            let search = "/pets.atom?lat=52.2300&lng=21.0100&range=5&lang=en"
            var statuses: [Int] = []
            for index in 0..<11 {
                let body = AlertFlowTests.subscribeBody(search: search, email: "person\(index)@example.com")
                statuses.append(try await post(try app.url("/alerts"), body: body, contentType: "application/x-www-form-urlencoded").status)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 200 })
            #expect(statuses.last == 429)
        }
    }
}
