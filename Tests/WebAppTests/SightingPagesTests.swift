import Foundation
import Sightings
import Synchronization
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// "I've seen this pet" and the owner's private page (docs/sightings.md) against the embedded demo upstream,
    /// whose photo endpoint tells a right management code from a wrong one as the backend does (product spec §10).
    @Suite("Sightings and the owner's page")
    struct SightingPagesTests {
        /// A report made through the JSON API: its id and management code. Each has a name of its own: the same body
        /// again from the same address would be the apps' "Try Again" and answer the first report (docs/replicas.md).
        private func report(_ app: TestApp, email: String? = "owner@example.com") async throws -> (id: String, code: String) {
            let emailJSON = email.map { #""\#($0)""# } ?? "null"
            let json =
                #"{"petName":"Burek \#(UInt32.random(in: 0...UInt32.max))","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,"#
                + #""microchipNumber":null,"locationLatitude":51.0782,"locationLongitude":17.0157,"email":\#(emailJSON),"#
                + #""phone":"+48 600 100 200","lastSeenDate":"2026-11-30","status":"MISSING","reward":null}"#
            let created = try await post(try app.url("/api/v1/announcements"), body: Data(json.utf8), contentType: "application/json")
            #expect(created.status == 201)
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            return (try #require(object["id"] as? String), try #require(object["managementPassword"] as? String))
        }

        private func sighting(_ app: TestApp, id: String, _ fields: [String: String], photo: [UInt8]? = nil) async throws -> Fetched {
            var form = Multipart()
            for (name, value) in fields { form.field(name, value) }
            if let photo { form.file("photo", fileName: "seen.jpg", contentType: "image/jpeg", bytes: photo) }
            return try await post(try app.url("/pets/\(id)/sighting"), body: form.body, contentType: form.contentType)
        }

        private func signIn(_ app: TestApp, id: String, code: String) async throws -> Fetched {
            try await post(try app.url("/pets/\(id)/sightings"), body: Data("code=\(code)".utf8), contentType: "application/x-www-form-urlencoded")
        }

        /// The cookie's `name=value` of a `Set-Cookie`.
        private func cookie(_ answer: Fetched) -> String? {
            answer.header("Set-Cookie")?.split(separator: ";").first.map(String.init)
        }

        @Test func a_sighting_reaches_the_owners_page_and_no_public_page() async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                let pet = try await report(app)
                let details = try await app.get("/pets/\(pet.id)")
                #expect(details.text.contains(#"data-testid="sighting-form""#))
                #expect(details.text.contains(#"action="/pets/\#(pet.id)/sighting""#))

                let marker = "seen-\(UInt32.random(in: 0...UInt32.max))"
                let sent = try await sighting(
                    app,
                    id: pet.id,
                    ["note": "<script>alert(1)</script> \(marker) ran east", "place": "Krzyki, Wrocław", "contact": "finder-\(marker)@example.com"],
                    photo: try photoFixture("oriented-gps.jpg")
                )
                #expect(sent.status == 201)
                #expect(sent.text.contains(#"data-testid="sighting-sent""#))
                #expect(sent.header("Cache-Control")?.contains("no-store") == true)
                #expect(!sent.text.contains(marker), "the answer does not echo the sighting")

                // Without the code: the login form only.
                let closed = try await app.get("/pets/\(pet.id)/sightings")
                #expect(closed.status == 200)
                #expect(closed.text.contains(#"data-testid="owner-login""#))
                #expect(!closed.text.contains(marker))

                let wrong = try await signIn(app, id: pet.id, code: pet.code == "000000" ? "111111" : "000000")
                #expect(wrong.status == 403)
                #expect(wrong.header("Set-Cookie") == nil)

                let right = try await signIn(app, id: pet.id, code: pet.code)
                #expect(right.status == 303)
                #expect(right.header("Location")?.hasPrefix("/pets/\(pet.id)/sightings") == true)
                let setCookie = try #require(right.header("Set-Cookie"))
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Secure"))
                #expect(setCookie.contains("Path=/pets/\(pet.id)/sightings"))
                #expect(!setCookie.contains(pet.code), "the code is never the cookie")
                let session = try #require(cookie(right))

                let open = try await app.get("/pets/\(pet.id)/sightings", headers: ["Cookie": session])
                #expect(open.status == 200)
                #expect(open.header("Cache-Control")?.contains("no-store") == true)
                #expect(open.text.contains(#"data-testid="sighting""#))
                #expect(open.text.contains(marker))
                #expect(open.text.contains("finder-\(marker)@example.com"))
                #expect(open.text.contains("Krzyki"), "the typed place is named")
                #expect(!open.text.contains("<script>alert(1)</script>"), "the note is escaped")
                #expect(open.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
                #expect(!open.text.contains(pet.code), "the code is never shown back")

                // The photo: for the owner's page only.
                let photoPath = try #require(
                    open.text.components(separatedBy: #"src=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
                        .first { $0.hasPrefix("/pets/\(pet.id)/sightings/") }
                )
                let photo = try await app.get(photoPath, headers: ["Cookie": session])
                #expect(photo.status == 200)
                #expect(photo.header("Content-Type") == "image/jpeg")
                #expect(Array(photo.body.prefix(2)) == [0xFF, 0xD8])
                #expect(photo.header("Cache-Control")?.contains("no-store") == true)
                #expect(try await app.get(photoPath).status == 404)

                // Another pet's cookie opens nothing here.
                let other = try await report(app)
                #expect(other.id != pet.id)
                let otherSession = try #require(cookie(try await signIn(app, id: other.id, code: other.code)))
                // Over a raw socket: exactly this cookie, nothing a client library might add.
                let crossed = await rawRequest(port: app.app.port, "/pets/\(pet.id)/sightings", headers: ["Cookie": otherSession])
                let crossedText = String(decoding: crossed.body, as: UTF8.self)
                #expect(crossedText.contains(#"data-testid="owner-login""#))
                #expect(!crossedText.contains(marker))
                #expect(await rawRequest(port: app.app.port, photoPath, headers: ["Cookie": otherSession]).status == 404)

                // No public answer carries any of it.
                for path in [
                    "/pets/\(pet.id)", "/pets", "/pets?sort=newest", "/map", "/", "/pets.atom", "/pets/\(pet.id)/poster",
                    "/api/v1/announcements", "/api/v1/announcements/\(pet.id)", "/api/v1/announcements.geojson",
                ] {
                    let page = try await app.get(path)
                    #expect(!page.text.contains(marker), "\(path) shows nothing of a sighting")
                }
            }
        }

        @Test func a_refused_sighting_keeps_what_was_typed() async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                let pet = try await report(app)
                let refused = try await sighting(
                    app,
                    id: pet.id,
                    ["note": "  ", "seenAt": "2099-01-01T10:00", "place": "Zzyzx Nowhere Qq", "contact": "call me"]
                )
                #expect(refused.status == 422)
                for field in ["note", "seenAt", "place", "contact"] {
                    #expect(refused.text.contains(#"data-field="\#(field)""#), "\(field) is refused")
                }
                #expect(refused.text.contains(#"value="Zzyzx Nowhere Qq""#))
                #expect(refused.text.contains(#"value="call me""#))
                #expect(refused.text.contains(#"value="2099-01-01T10:00""#))

                let old = try await sighting(app, id: pet.id, ["note": "by the river", "seenAt": "2020-01-01T10:00", "lat": "51.1", "lng": "17.03"])
                #expect(old.status == 422)
                #expect(old.text.contains(#"data-field="seenAt""#))
                #expect(old.text.contains("by the river"))

                let nowhere = try await sighting(app, id: pet.id, ["note": "by the river"])
                #expect(nowhere.status == 422)
                #expect(nowhere.text.contains(#"data-field="place""#))

                let located = try await sighting(app, id: pet.id, ["note": "by the river", "lat": "51.1", "lng": "17.03"])
                #expect(located.status == 201)
                #expect(try await sighting(app, id: "no-such-pet", ["note": "x", "lat": "51.1", "lng": "17.03"]).status == 404)
            }
        }

        @Test func wrong_codes_run_out_for_an_address_without_asking_the_backend() async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                let pet = try await report(app)
                let wrong = pet.code == "000000" ? "111111" : "000000"
                var statuses: [Int] = []
                for _ in 0..<6 { statuses.append(try await signIn(app, id: pet.id, code: wrong).status) }
                #expect(statuses.prefix(4).allSatisfy { $0 == 403 })
                #expect(statuses.suffix(2).allSatisfy { $0 == 429 }, "past the address's limit: \(statuses)")
                // Even the right code waits: the limit is taken before the backend is asked.
                #expect(try await signIn(app, id: pet.id, code: pet.code).status == 429)
                #expect(try await signIn(app, id: pet.id, code: "12ab").status == 422)
            }
        }

        @Test func sightings_are_relayed_to_the_reports_email_once_each_and_stop_in_one_click() async throws {
            let mailbox = AlertMailbox.make()
            try await withApp(configure: {
                $0.upstreamURL = nil
                $0.mailDirectory = mailbox.folder.path
            }) { app in
                let pet = try await report(app, email: "owner-\(UInt16.random(in: 0...UInt16.max))@example.com")
                let marker = "relay-\(UInt32.random(in: 0...UInt32.max))"
                let sent = try await sighting(
                    app,
                    id: pet.id,
                    ["note": "<b>\(marker)</b>\r\nConfirm: https://evil.example", "place": "Krzyki, Wrocław", "contact": "+48 601 000 111"]
                )
                #expect(sent.status == 201)
                #expect(sent.text.contains("e-mailed"), "the finder is told the owner was mailed")
                await app.app.deliverAlerts()
                let mails = try mailbox.mails()
                try #require(mails.count == 1)
                let mail = mails[0]
                #expect(mail.header("To")?.contains("owner-") == true)
                #expect(mail.header("List-Unsubscribe")?.contains("/alerts/stop/") == true)
                #expect(mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
                #expect(mail.html.contains("&lt;b&gt;\(marker)&lt;/b&gt;"), "the note is escaped in HTML")
                #expect(!mail.html.contains("<b>\(marker)"))
                #expect(!mail.text.contains("\nConfirm: https://evil.example"), "the note cannot forge a line of the text part")
                #expect(mail.text.contains("+48 601 000 111"))
                #expect(mail.text.contains("https://www.openstreetmap.org/?mlat="))
                #expect(mail.link("mail-owner-link")?.hasSuffix("/pets/\(pet.id)/sightings?lang=en") == true)

                // Two more within the instant gap: owed, and told together in the next mail after it.
                for note in ["second \(marker)", "third \(marker)"] {
                    #expect(try await sighting(app, id: pet.id, ["note": note, "lat": "51.1", "lng": "17.03"]).status == 201)
                }
                await app.app.deliverAlerts()
                #expect(try mailbox.mails().count == 1, "nothing within 10 minutes of the last mail")
                app.clock.advance(by: .seconds(11 * 60))
                await app.app.deliverAlerts()
                let later = try mailbox.mails()
                try #require(later.count == 2)
                #expect(later[1].text.contains("second \(marker)") && later[1].text.contains("third \(marker)"))

                // One click (RFC 8058): no more relay mails for this pet; sightings are still kept for the owner.
                let stop = try #require(later[1].header("List-Unsubscribe")?.trimmingCharacters(in: CharacterSet(charactersIn: "<>")))
                let stopped = try await post(
                    try app.url(ReceivedMail.pathAndQuery(stop)),
                    body: Data("List-Unsubscribe=One-Click".utf8),
                    contentType: "application/x-www-form-urlencoded"
                )
                #expect(stopped.status == 200)
                let after = try await sighting(app, id: pet.id, ["note": "fourth \(marker)", "lat": "51.1", "lng": "17.03"])
                #expect(after.status == 201)
                #expect(!after.text.contains("e-mailed"))
                app.clock.advance(by: .seconds(11 * 60))
                await app.app.deliverAlerts()
                #expect(try mailbox.mails().count == 2)
            }
        }

        @Test func a_hung_sighting_store_fails_the_pages_closed_and_keeps_what_was_typed() async throws {
            let store = HangingSightingStore()
            try await withApp(configure: { $0.upstreamURL = nil }, sightingStore: store) { app in
                let pet = try await report(app)
                let session = try #require(cookie(try await signIn(app, id: pet.id, code: pet.code)))
                store.hang(true)
                let sent = try await sighting(app, id: pet.id, ["note": "by the bakery", "lat": "51.1", "lng": "17.03"])
                #expect(sent.status == 503, "the sighting is refused when the store does not answer")
                #expect(sent.header("Retry-After") != nil)
                #expect(sent.text.contains("by the bakery"), "what the finder typed is kept")
                let owner = try await app.get("/pets/\(pet.id)/sightings", headers: ["Cookie": session])
                #expect(owner.status == 503)
                #expect(!owner.text.contains(#"data-testid="sighting""#))
                store.hang(false)
                #expect(try await app.get("/pets/\(pet.id)/sightings", headers: ["Cookie": session]).status == 200)
            }
        }

        @Test func a_report_without_an_email_keeps_the_sighting_and_shows_the_phone() async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                let pet = try await report(app, email: nil)
                let sent = try await sighting(app, id: pet.id, ["note": "under a car", "lat": "51.1", "lng": "17.03"])
                #expect(sent.status == 201)
                #expect(!sent.text.contains("e-mailed"))
                #expect(sent.text.contains("tel:"))
            }
        }

        /// A report with its photo, so that it is listed (the backend lists only reports with a photo).
        private func listedReport(_ app: TestApp, status: String = "MISSING") async throws -> (id: String, code: String) {
            let name = "Reksio \(UInt32.random(in: 0...UInt32.max))"
            let json =
                #"{"petName":"\#(name)","species":"DOG","breed":null,"sex":"MALE","age":3,"description":null,"microchipNumber":null,"#
                + #""locationLatitude":51.0782,"locationLongitude":17.0157,"email":"owner@example.com","phone":null,"#
                + #""lastSeenDate":"2026-11-30","status":"\#(status)","reward":null}"#
            let created = try await post(try app.url("/api/v1/announcements"), body: Data(json.utf8), contentType: "application/json")
            #expect(created.status == 201)
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            let id = try #require(object["id"] as? String)
            let code = try #require(object["managementPassword"] as? String)
            var photo = Multipart()
            photo.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: try photoFixture("oriented-gps.jpg"))
            let uploaded = try await post(
                try app.url("/api/v1/announcements/\(id)/photos"),
                body: photo.body,
                contentType: photo.contentType,
                headers: ["Authorization": "Basic " + Data("\(id):\(code)".utf8).base64EncodedString()]
            )
            #expect(uploaded.status == 201)
            return (id, code)
        }

        private func reunite(_ app: TestApp, id: String, session: String?, undo: Bool = false) async throws -> Fetched {
            try await post(
                try app.url("/pets/\(id)/sightings/reunited"),
                body: Data((undo ? "undo=1" : "reunited=1").utf8),
                contentType: "application/x-www-form-urlencoded",
                headers: session.map { ["Cookie": $0] } ?? [:]
            )
        }

        @Test(arguments: ["MISSING", "FOUND"])
        func reunited_pets_leave_every_list_keep_their_page_with_a_banner_and_come_back_on_undo(status: String) async throws {
            try await withApp(configure: { $0.upstreamURL = nil }) { app in
                let pet = try await listedReport(app, status: status)
                let listed = ["/pets", "/map", "/pets.atom", "/api/v1/announcements", "/api/v1/announcements.geojson"]
                for path in listed { #expect(try await app.get(path).text.contains(pet.id), "\(path) lists the new pet") }

                // Not without the owner's cookie: refused, nothing changes.
                let refused = try await reunite(app, id: pet.id, session: nil)
                #expect(refused.status == 403)
                #expect(try await app.get("/pets").text.contains(pet.id))

                let session = try #require(cookie(try await signIn(app, id: pet.id, code: pet.code)))
                let owner = try await app.get("/pets/\(pet.id)/sightings", headers: ["Cookie": session])
                #expect(owner.text.contains(#"data-testid="reunited-form""#))
                #expect(owner.text.contains(status == "FOUND" ? "Returned to its owner" : "We are reunited"))
                #expect(owner.text.contains("cannot delete a report"), "the page says the report cannot be taken down")

                let marked = try await reunite(app, id: pet.id, session: session)
                #expect(marked.status == 303)
                #expect(marked.header("Location") == "/pets/\(pet.id)/sightings")
                for path in listed { #expect(!(try await app.get(path).text.contains(pet.id)), "\(path) leaves the reunited pet out") }
                let home = try await app.get("/pets?status=reunited")
                #expect(home.status == 200)
                #expect(home.text.contains(pet.id), "status=reunited lists it")

                let details = try await app.get("/pets/\(pet.id)")
                #expect(details.status == 200, "a shared link keeps working")
                #expect(details.text.contains(#"data-testid="reunited-banner""#))
                #expect(!details.text.contains(#"data-testid="sighting-form""#), "no sighting is asked for a pet at home")
                let apiDetails = try await app.get("/api/v1/announcements/\(pet.id)")
                let api = try #require(try JSONSerialization.jsonObject(with: apiDetails.body) as? [String: Any])
                let reunitedAt = try #require(api["reunitedAt"] as? String)
                #expect(reunitedAt.hasPrefix("20"))
                let late = try await sighting(app, id: pet.id, ["note": "saw it", "lat": "51.1", "lng": "17.03"])
                #expect(late.status == 409)
                #expect(!late.text.contains(#"data-testid="sighting-form""#))

                let afterMark = try await app.get("/pets/\(pet.id)/sightings", headers: ["Cookie": session])
                #expect(afterMark.text.contains(#"data-testid="reunited-banner""#))
                #expect(afterMark.text.contains(#"name="undo""#), "within a day it may be taken back")

                let undone = try await reunite(app, id: pet.id, session: session, undo: true)
                #expect(undone.status == 303)
                for path in listed { #expect(try await app.get(path).text.contains(pet.id), "\(path) lists it again after the undo") }
                #expect(!(try await app.get("/pets/\(pet.id)").text.contains(#"data-testid="reunited-banner""#)))
                #expect(!(try await app.get("/pets?status=reunited").text.contains(pet.id)))
            }
        }
    }
}

/// A memory sighting store whose calls, while `hang(true)`, do not answer until `hang(false)`: PostgreSQL
/// stopped under a connection (what `GuardedSightingStore` guards the pages against).
final class HangingSightingStore: SightingStore {
    private let base = MemorySightingStore()
    private let hung = Mutex(false)

    func hang(_ value: Bool) { hung.withLock { $0 = value } }

    private func wait() async {
        while hung.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func add(_ sighting: Sighting, photo: SightingPhoto?) async throws {
        await wait()
        try await base.add(sighting, photo: photo)
    }
    func sightings(petID: String, limit: Int) async throws -> [Sighting] {
        await wait()
        return try await base.sightings(petID: petID, limit: limit)
    }
    func sightings(ids: [String]) async throws -> [Sighting] {
        await wait()
        return try await base.sightings(ids: ids)
    }
    func photo(sightingID: String, petID: String) async throws -> SightingPhoto? {
        await wait()
        return try await base.photo(sightingID: sightingID, petID: petID)
    }
    func openAccess(petID: String, now: Date) async throws -> String {
        await wait()
        return try await base.openAccess(petID: petID, now: now)
    }
    func hasAccess(token: String, petID: String, now: Date) async throws -> Bool {
        await wait()
        return try await base.hasAccess(token: token, petID: petID, now: now)
    }
    func closeAccess(token: String) async throws {
        await wait()
        try await base.closeAccess(token: token)
    }
    func markReunited(petID: String, now: Date) async throws -> Reunion {
        await wait()
        return try await base.markReunited(petID: petID, now: now)
    }
    func undoReunited(petID: String, now: Date) async throws -> Bool {
        await wait()
        return try await base.undoReunited(petID: petID, now: now)
    }
    func reunion(petID: String) async throws -> Reunion? {
        await wait()
        return try await base.reunion(petID: petID)
    }
    func reunions() async throws -> [Reunion] {
        await wait()
        return try await base.reunions()
    }
    func sweep(now: Date) async throws -> Int {
        await wait()
        return try await base.sweep(now: now)
    }
}
