import Foundation
import ImageResizer
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// The report flow against a programmable upstream (docs/report-flow.md): what is sent
    /// upstream, and what the visitor sees when the upstream refuses, fails or is slow.
    @Suite("Report flow")
    struct ReportFlowTests {
        static let created = "/api/v1/announcements"
        static func photos(_ id: String) -> String { "/api/v1/announcements/\(id)/photos" }

        @Test func the_form_is_one_page_in_both_languages_with_every_upstream_field() async throws {
            try await withApp { app in
                let headings = [("", "Report a lost pet"), ("?lang=pl", "Zgłoś zaginione zwierzę"), ("?status=found", "Report a found pet")]
                for (query, heading) in headings {
                    let page = try await app.get("/report" + query)
                    #expect(page.status == 200)
                    #expect(page.header("Cache-Control") == "no-store")
                    #expect(page.text.contains("<h1>\(heading)</h1>"))
                    #expect(page.text.contains(#"data-testid="report-form" method="post""#))
                    #expect(page.text.contains(#"enctype="multipart/form-data""#))
                    for name in [
                        "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "lastSeenDate",
                        "locationLatitude", "locationLongitude", "email", "phone", "reward", "status", "photo",
                    ] {
                        #expect(page.text.contains("name=\"\(name)\""), "missing field \(name)")
                    }
                }
                let found = try await app.get("/report?status=found&lat=51.1079&lng=17.0385")
                #expect(found.text.contains(#"value="FOUND" required checked"#))
                #expect(found.text.contains(#"value="UNKNOWN""#), "found pets may have an unknown sex")
                #expect(inputValue(found.text, name: "locationLatitude") == "51.1079")
                #expect(inputValue(found.text, name: "locationLongitude") == "17.0385")
                let missing = try await app.get("/report")
                #expect(!missing.text.contains(#"value="UNKNOWN""#))
                // Two forms never share a submission reference.
                #expect(inputValue(missing.text, name: "submission") != inputValue(found.text, name: "submission"))
            }
        }

        @Test func landing_list_and_navigation_lead_to_the_form() async throws {
            try await withApp { app in
                let landing = try await app.get("/?lang=pl")
                #expect(landing.text.contains(#"href="/report?lang=pl" data-testid="report-lost""#))
                #expect(landing.text.contains(#"href="/report?status=found&amp;lang=pl" data-testid="report-found""#))
                #expect(landing.text.contains(#"data-testid="nav-report""#))
                let list = try await app.get("/pets?lat=52.2297&lng=21.0122")
                #expect(list.text.contains(#"href="/report?lat=52.2297&amp;lng=21.0122" data-testid="report-lost""#))
            }
        }

        @Test func the_photo_is_upright_and_without_metadata_when_it_goes_upstream() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-1"))
                app.stub.setWrite(path: Self.photos("p-1"), status: 201, body: "{}")
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")

                let answer = try await app.submit(form)

                #expect(answer.status == 201)
                #expect(resultPetID(answer.text) == "p-1")
                #expect(managementCode(answer.text) == "123456")
                #expect(answer.header("Cache-Control") == "no-store")
                let sent = try #require(app.stub.postedFile(path: Self.photos("p-1"), field: "photo"))
                #expect(Array(sent.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
                let top = try ImageResizer.inspect(sent, x: 470, y: 1)
                #expect(top.width == 474 && top.height == 632, "turned upright: \(top.width)×\(top.height)")
                #expect(top.orientation == 1)
                #expect(!top.hasMetadata, "EXIF, XMP, IPTC or ICC left in the photo")
                #expect(top.rgb.2 > top.rgb.0 + 60, "sky at the top: \(top.rgb)")
                let text = String(decoding: sent, as: UTF8.self)
                #expect(!text.contains("Exif") && !text.contains("PetSpot test camera"))
                // The JSON sent: trimmed values, empty optional fields left out, numbers as numbers.
                let json = String(decoding: try #require(app.stub.postedJSON(path: Self.created)), as: UTF8.self)
                #expect(json.contains(#""age":3"#) && json.contains(#""locationLatitude":52.2297"#))
                #expect(!json.contains(#""email""#) && !json.contains(#""reward""#) && !json.contains("null"))
            }
        }

        @Test func a_refused_form_comes_back_with_every_value_and_each_problem_by_its_field() async throws {
            try await withApp { app in
                var form = ReportForm()
                form.values["phone"] = ""
                form.values["age"] = "0"
                form.values["description"] = String(repeating: "a", count: 501)
                form.values["microchipNumber"] = "12345-67890-1234X"
                form.values["petName"] = "  Burek <b>\"x\"</b>  "
                form.photo = try photoFixture("oriented-gps.jpg")

                let answer = try await app.submit(form)

                #expect(answer.status == 422)
                #expect(Set(fieldErrors(answer.text)) == ["contact", "age", "description", "microchipNumber"])
                #expect(inputValue(answer.text, name: "petName") == "  Burek &lt;b&gt;&quot;x&quot;&lt;/b&gt;  ")
                #expect(inputValue(answer.text, name: "microchipNumber") == "12345-67890-1234X")
                #expect(answer.text.contains(String(repeating: "a", count: 501) + "</textarea>"))
                #expect(answer.text.contains(#"data-testid="kept-photo""#), "the valid photo is kept")
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 0, "nothing goes upstream")

                // Corrected, without choosing the photo again: the kept one is sent.
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-2"))
                app.stub.setWrite(path: Self.photos("p-2"), status: 201, body: "{}")
                var fixed = ReportForm()
                fixed.hidden["keptPhoto"] = try #require(inputValue(answer.text, name: "keptPhoto"))
                fixed.hidden["submission"] = try #require(inputValue(answer.text, name: "submission"))
                let again = try await app.submit(fixed)
                #expect(again.status == 201)
                #expect(resultPetID(again.text) == "p-2")
                #expect(try #require(app.stub.postedFile(path: Self.photos("p-2"), field: "photo")).count > 1000)
            }
        }

        @Test func a_photo_that_is_not_a_photo_is_refused_and_nothing_is_created() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-3"))
                for bytes in [Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), pngDeclaring(width: 30000, height: 30000), []] {
                    var form = ReportForm()
                    form.photo = bytes.isEmpty ? nil : bytes
                    let answer = try await app.submit(form)
                    #expect(answer.status == 422)
                    #expect(fieldErrors(answer.text) == ["photo"])
                }
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 0)
            }
        }

        @Test func the_same_form_sent_twice_makes_one_report_and_shows_it_again() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-4", password: "654321"))
                app.stub.setWrite(path: Self.photos("p-4"), status: 201, body: "{}")
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                form.hidden["submission"] = try #require(inputValue(try await app.get("/report").text, name: "submission"))
                // A constant to send: under -sanitize=thread the compiler instruments the `var` it would
                // capture, and region isolation then refuses to send it into two async lets
                // (docs/testing.md "Fuzzing and sanitizers").
                let sent = form

                async let first = app.submit(sent)
                async let second = app.submit(sent)
                let answers = try await [first, second]
                let refreshed = try await app.submit(sent)

                #expect(app.stub.requestCount(path: "POST " + Self.created) == 1)
                for answer in answers + [refreshed] {
                    #expect(resultPetID(answer.text) == "p-4")
                    #expect(managementCode(answer.text) == "654321")
                }
                #expect(Set(answers.map(\.status)) == [200, 201])
                #expect(refreshed.status == 200)
            }
        }

        @Test func an_upstream_that_fails_or_is_slow_keeps_the_form_and_the_photo() async throws {
            let logs = LogCapture()
            // Writes may take six times the read timeout: 1.2 s here.
            try await withApp(configure: { $0.upstreamTimeoutSeconds = 0.2 }, logs: logs) { app in
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                app.stub.setWrite(path: Self.created, status: 500, body: #"{"error":{"code":"INTERNAL_SERVER_ERROR"}}"#)
                let failed = try await app.submit(form)
                #expect(failed.status == 502)
                #expect(failed.text.contains(#"data-testid="report-problem""#))
                #expect(inputValue(failed.text, name: "petName") == "Burek")
                #expect(inputValue(failed.text, name: "keptPhoto") != nil)
                #expect(
                    logs.lines.contains {
                        $0.contains("upstream write failed") && $0.contains("upstream_request_id=") && !$0.contains("upstream_request_id=-")
                    }
                )

                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-slow"))
                app.stub.setFault(.slow(.seconds(2)))
                let slow = try await app.submit(form)
                #expect(slow.status == 504)
                #expect(inputValue(slow.text, name: "phone") == "+48 600 100 200")
            }
        }

        @Test func a_failed_photo_upload_offers_a_retry_that_never_makes_a_second_report() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-5", password: "111222"))
                app.stub.setWrite(path: Self.photos("p-5"), status: 500, body: #"{"error":{"code":"INTERNAL_SERVER_ERROR"}}"#)
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")

                let made = try await app.submit(form)
                #expect(made.status == 201)
                #expect(made.text.contains(#"data-testid="photo-failed""#))
                #expect(made.text.contains(#"data-testid="photo-retry""#))
                let kept = try #require(inputValue(made.text, name: "keptPhoto"))

                app.stub.setWrite(path: Self.photos("p-5"), status: 201, body: "{}")
                var retry = Multipart()
                retry.field("id", "p-5")
                retry.field("managementPassword", "111222")
                retry.field("keptPhoto", kept)
                let sent = try await post(
                    try app.url("/report/photo"),
                    body: retry.body,
                    contentType: retry.contentType,
                    headers: ["Origin": "http://127.0.0.1:\(app.app.port)"]
                )
                #expect(sent.status == 200)
                #expect(resultPetID(sent.text) == "p-5")
                #expect(!sent.text.contains(#"data-testid="photo-retry""#))
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 1)
                #expect(app.stub.requestCount(path: "POST " + Self.photos("p-5")) == 2)
            }
        }

        @Test func a_write_from_another_site_is_refused_and_nothing_is_sent() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-6"))
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                let foreign = try await app.submit(form, headers: ["Origin": "https://evil.example"])
                #expect(foreign.status == 403)
                let crossSite = try await app.submit(form, headers: ["Sec-Fetch-Site": "cross-site"])
                #expect(crossSite.status == 403)
                let api = try await post(
                    try app.url("/api/v1/announcements"),
                    body: Data("{}".utf8),
                    contentType: "application/json",
                    headers: ["Origin": "https://evil.example"]
                )
                #expect(api.status == 403)
                #expect(api.text.contains(#""code":"FORBIDDEN""#))
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 0)
            }
        }

        @Test func accepted_reports_are_limited_per_client_address() async throws {
            try await withApp(configure: { $0.reportLimit = 2 }) { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-7"))
                app.stub.setWrite(path: Self.photos("p-7"), status: 201, body: "{}")
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                for _ in 0..<2 { #expect(try await app.submit(form).status == 201) }
                let third = try await app.submit(form)
                #expect(third.status == 429)
                #expect(Int(third.header("Retry-After") ?? "") ?? 0 > 0)
                #expect(third.text.contains(#"data-testid="report-problem""#))
                #expect(inputValue(third.text, name: "petName") == "Burek")
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 2)
                // Ten minutes later the address may report again.
                app.clock.advance(by: .seconds(601))
                #expect(try await app.submit(form).status == 201)
            }
        }

        @Test func wrong_management_codes_are_limited_without_asking_the_upstream() async throws {
            try await withApp { app in
                app.stub.setWrite(path: Self.photos("p-8"), status: 403, body: #"{"error":{"code":"UNAUTHORIZED","message":"Invalid credentials"}}"#)
                var statuses: [Int] = []
                for _ in 0..<5 {
                    var retry = Multipart()
                    retry.field("id", "p-8")
                    retry.field("managementPassword", "000000")
                    retry.file("photo", fileName: "a.jpg", contentType: "image/jpeg", bytes: try photoFixture("oriented-gps.jpg"))
                    statuses.append(try await post(try app.url("/report/photo"), body: retry.body, contentType: retry.contentType).status)
                }
                #expect(statuses.prefix(4).allSatisfy { $0 == 403 })
                #expect(statuses.last == 429)
                #expect(app.stub.requestCount(path: "POST " + Self.photos("p-8")) == 4)
            }
        }

        @Test func an_upload_over_the_limit_is_refused_before_its_body_is_read() async throws {
            try await withApp { app in
                let reply = await rawSend(
                    port: app.app.port,
                    text: "POST /report HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 40000000\r\n\r\n"
                )
                #expect(reply.hasPrefix("HTTP/1.1 413"))
                #expect(app.stub.requestCount(path: "POST " + Self.created) == 0)
            }
        }

        @Test func the_management_code_never_reaches_the_log_or_the_metrics() async throws {
            let logs = LogCapture()
            try await withApp(logs: logs) { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-9", password: "987123"))
                app.stub.setWrite(path: Self.photos("p-9"), status: 201, body: "{}")
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                let answer = try await app.submit(form)
                #expect(managementCode(answer.text) == "987123")
                let metrics = try await app.get("/metrics")
                #expect(!logs.lines.isEmpty)
                #expect(!logs.lines.contains { $0.contains("987123") })
                #expect(!metrics.text.contains("987123"))
                #expect(logs.lines.contains { $0.contains("report created upstream") && $0.contains("pet_id=p-9") })
            }
        }
    }
}

extension ServerIntegration.ReportFlowTests {
    @Test func an_iphone_heic_photo_reaches_the_upstream_as_a_jpeg() async throws {
        try await withApp { app in
            app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-heic"))
            app.stub.setWrite(path: Self.photos("p-heic"), status: 201, body: "{}")
            var form = ReportForm()
            form.photo = try photoFixture("upright.heic")
            form.photoName = "IMG_0001.HEIC"

            let answer = try await app.submit(form)

            #expect(answer.status == 201)
            let sent = try #require(app.stub.postedFile(path: Self.photos("p-heic"), field: "photo"))
            #expect(Array(sent.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG, which every browser shows")
            let image = try ImageResizer.inspect(sent, x: 45, y: 1)
            #expect(image.width == 90 && image.height == 120)
            #expect(!image.hasMetadata)
        }
    }
}

extension ServerIntegration.ReportFlowTests {
    @Test func x_forwarded_for_names_the_client_only_behind_a_trusted_proxy() async throws {
        for trusted in [true, false] {
            try await withApp(configure: { configuration in
                configuration.reportLimit = 1
                if trusted { configuration.trustedProxies = ["127.0.0.1"] }
            }) { app in
                app.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "p-xff"))
                app.stub.setWrite(path: Self.photos("p-xff"), status: 201, body: "{}")
                var form = ReportForm()
                form.photo = try photoFixture("oriented-gps.jpg")
                let first = try await app.submit(form, headers: ["X-Forwarded-For": "203.0.113.7"])
                let second = try await app.submit(form, headers: ["X-Forwarded-For": "203.0.113.8"])
                #expect(first.status == 201)
                // Behind a trusted proxy these are two visitors; otherwise one peer that sent a header.
                #expect(second.status == (trusted ? 201 : 429), "trusted: \(trusted)")
            }
        }
    }

    @Test func wrong_codes_for_one_report_are_limited_whatever_the_address() async throws {
        try await withApp(configure: { $0.trustedProxies = ["127.0.0.1"] }) { app in
            app.stub.setWrite(path: Self.photos("p-10"), status: 403, body: #"{"error":{"code":"UNAUTHORIZED"}}"#)
            var statuses: [Int] = []
            for attempt in 0..<21 {
                var retry = Multipart()
                retry.field("id", "p-10")
                retry.field("managementPassword", String(format: "%06d", attempt))
                retry.file("photo", fileName: "a.jpg", contentType: "image/jpeg", bytes: try photoFixture("upright.png"))
                // Three guesses per address: the address limit (10) is never reached, the report's (20) is.
                let headers = ["X-Forwarded-For": "198.51.100.\(attempt / 3 + 1)"]
                let answer = try await post(try app.url("/report/photo"), body: retry.body, contentType: retry.contentType, headers: headers)
                statuses.append(answer.status)
            }
            #expect(statuses.prefix(20).allSatisfy { $0 == 403 })
            #expect(statuses.last == 429)
            #expect(app.stub.requestCount(path: "POST " + Self.photos("p-10")) == 20)
        }
    }
}
