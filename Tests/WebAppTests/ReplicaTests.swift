import DemoUpstream
import Foundation
import Logging
import PetSpotPostgres
import ReportStore
import Synchronization
import TestSupport
import Testing
import WebApp

/// Two replicas of the real app (each its own server, snapshot and caches) on one stub upstream and
/// one real PostgreSQL, as our deployment runs them behind a Service without affinity
/// (docs/replicas.md). Each replica runs its `PostgresWriteStore` and `ChangeFeed` as the executable does.
struct Replicas: Sendable {
    let a: TestApp
    let b: TestApp
    let stub: StubUpstream
    let cluster: ThrowawayPostgres
    /// One visitor's address for this test (the limits live in the shared database, so each test is
    /// its own visitor; the replicas trust the loopback proxy's `X-Forwarded-For`, as behind nginx).
    let visitor = ["X-Forwarded-For": "2001:db8::" + String(UInt32.random(in: 1...UInt32.max), radix: 16)]
}

/// How many change feeds are connected.
final class FeedCount: Sendable {
    private let state = Mutex(0)
    func change(_ connected: Bool) { state.withLock { $0 += connected ? 1 : -1 } }
    var value: Int { state.withLock { $0 } }
}

func withReplicas(
    cluster: ThrowawayPostgres? = nil,
    configure: @escaping @Sendable (inout AppConfiguration) -> Void = { _ in },
    _ body: (Replicas) async throws -> Void
) async throws {
    let cluster = try #require(cluster ?? ThrowawayPostgres.shared, "PostgreSQL must be installed (scripts/test.sh installs it)")
    let stub = try StubUpstream.start()
    stub.setList(#"{"data":[]}"#)
    var logger = Logger(label: "replica-test")
    logger.logLevel = .critical
    var apps: [TestApp] = []
    var services: [Task<Void, any Error>] = []
    let feeds = FeedCount()
    do {
        for name in ["a", "b"] {
            var configuration = AppConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.upstreamURL = URL(string: stub.baseURL)
            configuration.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
            configuration.templatesDirectory = repositoryRoot.appendingPathComponent("Templates").path
            configuration.placesFile = TestPlaces.file
            configuration.upstreamTimeoutSeconds = 2
            configuration.tileURLTemplate = "http://127.0.0.1:9/{z}/{x}/{y}.png"
            configuration.trustedProxies = ["127.0.0.1"]
            configure(&configuration)
            let url = try DatabaseURL(cluster.url)
            let replica = "test-\(name)-\(UUID().uuidString.prefix(6))"
            let store = PostgresWriteStore(url: url, photoBytes: 16 << 20, replica: replica, logger: logger)
            let clock = ManualClock()
            let app = try await PetSpotApp.build(
                configuration: configuration,
                files: TestSiteFiles.files(for: configuration),
                logger: logger,
                writeStore: store,
                now: clock.reading
            )
            let feed = ChangeFeed(url: url, replica: replica, logger: logger, onConnected: { feeds.change($0) }) { _ in await app.dataChanged() }
            services.append(Task { try await store.run() })
            services.append(Task { try await feed.run() })
            try app.start()
            apps.append(TestApp(app: app, stub: stub, base: try #require(URL(string: "http://127.0.0.1:\(app.port)")), clock: clock))
            for _ in 0..<400 where !store.isReady { try await Task.sleep(for: .milliseconds(25)) }
            try #require(store.isReady)
        }
        for _ in 0..<400 where feeds.value < 2 { try await Task.sleep(for: .milliseconds(25)) }
        try #require(feeds.value == 2, "both change feeds listen")
        try await body(Replicas(a: apps[0], b: apps[1], stub: stub, cluster: cluster))
    } catch {
        for app in apps { await app.app.stop() }
        for service in services { service.cancel() }
        await stub.stop()
        throw error
    }
    for app in apps { await app.app.stop() }
    for service in services { service.cancel() }
    await stub.stop()
}

extension ServerIntegration {
    /// Every row of the operator's table (docs/replicas.md) on two real replicas.
    @Suite("Two replicas, one service", .serialized)
    struct ReplicaTests {
        static let created = "/api/v1/announcements"
        static func photos(_ id: String) -> String { "/api/v1/announcements/\(id)/photos" }

        static func form(_ photo: [UInt8]) -> ReportForm {
            var form = ReportForm()
            form.photo = photo
            form.hidden["submission"] = FormReference.make()
            return form
        }

        @Test func a_reload_on_the_other_replica_shows_the_first_report_and_makes_no_second() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-1", password: "654321"))
                replicas.stub.setWrite(path: Self.photos("r-1"), status: 201, body: "{}")
                let form = Self.form(try photoFixture("oriented-gps.jpg"))
                let first = try await replicas.a.submit(form, headers: replicas.visitor)
                #expect(first.status == 201)
                let again = try await replicas.b.submit(form, headers: replicas.visitor)
                #expect(again.status == 200)
                #expect(resultPetID(again.text) == "r-1")
                #expect(managementCode(again.text) == "654321")
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 1)
            }
        }

        @Test func a_double_click_across_replicas_makes_one_report() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-2"))
                replicas.stub.setWrite(path: Self.photos("r-2"), status: 201, body: "{}")
                replicas.stub.setFault(.slow(.milliseconds(400)))
                let form = Self.form(try photoFixture("oriented-gps.jpg"))
                async let one = replicas.a.submit(form, headers: replicas.visitor)
                async let two = replicas.b.submit(form, headers: replicas.visitor)
                let answers = try await [one, two]
                #expect(answers.map(\.status).sorted() == [200, 201])
                #expect(answers.allSatisfy { resultPetID($0.text) == "r-2" && managementCode($0.text) == "123456" })
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 1)
            }
        }

        @Test func the_corrected_form_on_the_other_replica_finds_the_kept_photo() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-3"))
                replicas.stub.setWrite(path: Self.photos("r-3"), status: 201, body: "{}")
                var form = Self.form(try photoFixture("oriented-gps.jpg"))
                form.values["lastSeenDate"] = "not a date"
                let refused = try await replicas.a.submit(form, headers: replicas.visitor)
                #expect(refused.status == 422)
                let kept = try #require(inputValue(refused.text, name: "keptPhoto"))
                form.values["lastSeenDate"] = "2025-11-20"
                form.photo = nil
                form.hidden["keptPhoto"] = kept
                form.hidden["submission"] = try #require(inputValue(refused.text, name: "submission"))
                let made = try await replicas.b.submit(form, headers: replicas.visitor)
                #expect(made.status == 201)
                let sent = try #require(replicas.stub.postedFile(path: Self.photos("r-3"), field: "photo"))
                #expect(Array(sent.prefix(3)) == [0xFF, 0xD8, 0xFF])
            }
        }

        @Test func the_report_limit_is_counted_once_for_both_replicas() async throws {
            try await withReplicas(configure: { $0.reportLimit = 3 }) { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-4"))
                replicas.stub.setWrite(path: Self.photos("r-4"), status: 201, body: "{}")
                let photo = try photoFixture("oriented-gps.jpg")
                var statuses: [Int] = []
                for index in 0..<6 {
                    let app = index % 2 == 0 ? replicas.a : replicas.b
                    let answer = try await app.submit(Self.form(photo), headers: replicas.visitor)
                    statuses.append(answer.status)
                }
                #expect(statuses == [201, 201, 201, 429, 429, 429])
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 3)
            }
        }

        @Test func wrong_codes_are_counted_once_for_both_replicas() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.photos("r-5"), status: 403, body: #"{"error":{"code":"UNAUTHORIZED","message":"wrong"}}"#)
                let photo = try photoFixture("oriented-gps.jpg")
                var statuses: [Int] = []
                for index in 0..<5 {
                    var form = Multipart()
                    form.field("id", "r-5")
                    form.field("managementPassword", String(100_000 + index))
                    form.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: photo)
                    let app = index % 2 == 0 ? replicas.a : replicas.b
                    let answer = try await post(
                        try app.url("/report/photo"),
                        body: form.body,
                        contentType: form.contentType,
                        headers: ["Origin": "http://127.0.0.1:\(app.app.port)"].merging(replicas.visitor) { $1 }
                    )
                    statuses.append(answer.status)
                }
                #expect(Array(statuses.prefix(4)) == Array(repeating: 403, count: 4))
                #expect(statuses.last == 429)
                #expect(replicas.stub.requestCount(path: "POST " + Self.photos("r-5")) == 4)
            }
        }

        @Test func a_new_report_is_on_the_other_replica_at_once() async throws {
            try await withReplicas { replicas in
                // B holds its snapshot for the TTL (its clock never moves in this test).
                #expect(try await replicas.b.get("/api/v1/announcements").status == 200)
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-6"))
                replicas.stub.setWrite(path: Self.photos("r-6"), status: 201, body: "{}")
                let listed = createdBody(id: "r-6").replacingOccurrences(of: #""photoUrl":null"#, with: #""photoUrl":"/images/r-6.jpg""#)
                replicas.stub.setList(#"{"data":["# + listed + "]}")
                #expect(!(try await replicas.b.get("/api/v1/announcements").text.contains("\"r-6\"")), "B answers from its snapshot")
                let made = try await replicas.a.submit(Self.form(try photoFixture("oriented-gps.jpg")), headers: replicas.visitor)
                #expect(made.status == 201)
                var seen = false
                for _ in 0..<100 {
                    if try await replicas.b.get("/api/v1/announcements").text.contains("\"r-6\"") {
                        seen = true
                        break
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(seen, "B never showed the report A published")
                #expect(try await replicas.b.get("/pets").text.contains("data-pet-id=\"r-6\""))
            }
        }

        @Test func the_api_idempotency_key_gives_the_first_answer_on_any_replica() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-7", password: "777777"))
                let body = Data(Self.apiBody.utf8)
                let key = UUID().uuidString
                let first = try await post(
                    try replicas.a.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor.merging(["Idempotency-Key": key]) { $1 }
                )
                #expect(first.status == 201)
                let again = try await post(
                    try replicas.b.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor.merging(["Idempotency-Key": key]) { $1 }
                )
                #expect(again.status == 201)
                #expect(again.text == first.text)
                #expect(again.text.contains("777777"))
                let other = Data(Self.apiBody.replacingOccurrences(of: "Burek", with: "Azor").utf8)
                let mismatch = try await post(
                    try replicas.b.url("/api/v1/announcements"),
                    body: other,
                    contentType: "application/json",
                    headers: replicas.visitor.merging(["Idempotency-Key": key]) { $1 }
                )
                #expect(mismatch.status == 422)
                #expect(mismatch.text.contains("IDEMPOTENCY_KEY_REUSED"))
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 1)
            }
        }

        @Test func the_same_idempotency_key_at_once_on_both_replicas_makes_one_and_answers_409_to_the_other() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-8"))
                replicas.stub.setFault(.slow(.milliseconds(600)))
                let body = Data(Self.apiBody.utf8)
                let key = "\"\(UUID().uuidString)\""
                async let one = post(
                    try replicas.a.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor.merging(["Idempotency-Key": key]) { $1 }
                )
                async let two = post(
                    try replicas.b.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor.merging(["Idempotency-Key": key]) { $1 }
                )
                let answers = try await [one, two]
                #expect(answers.map(\.status).sorted() == [201, 409])
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 1)
            }
        }

        @Test func try_again_after_a_failed_photo_upload_lands_on_the_first_announcement() async throws {
            try await withReplicas { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-9", password: "999999"))
                let body = Data(Self.apiBody.replacingOccurrences(of: "Burek", with: "Burek \(UUID().uuidString.prefix(6))").utf8)
                let first = try await post(
                    try replicas.a.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor
                )
                #expect(first.status == 201)
                // The app's upload failed; "Try Again" creates again, maybe through the other replica.
                let again = try await post(
                    try replicas.b.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor
                )
                #expect(again.status == 201)
                #expect(again.text == first.text)
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 1)
                // The photo arrives: an identical create is a new report again.
                replicas.stub.setWrite(path: Self.photos("r-9"), status: 201, body: "{}")
                var upload = Multipart()
                upload.file("photo", fileName: "dog.jpg", contentType: "image/jpeg", bytes: try photoFixture("oriented-gps.jpg"))
                let photo = try await post(
                    try replicas.b.url(Self.photos("r-9")),
                    body: upload.body,
                    contentType: upload.contentType,
                    headers: replicas.visitor.merging(["Authorization": "Basic " + Data("r-9:999999".utf8).base64EncodedString()]) { $1 }
                )
                #expect(photo.status == 201)
                _ = try await post(
                    try replicas.a.url("/api/v1/announcements"),
                    body: body,
                    contentType: "application/json",
                    headers: replicas.visitor
                )
                #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 2)
            }
        }

        @Test func with_the_database_hung_or_killed_writes_fail_closed_and_reads_go_on() async throws {
            let cluster = try ThrowawayPostgres()
            defer { cluster.remove() }
            try await withReplicas(cluster: cluster) { replicas in
                replicas.stub.setWrite(path: Self.created, status: 201, body: createdBody(id: "r-10"))
                replicas.stub.setWrite(path: Self.photos("r-10"), status: 201, body: "{}")
                let photo = try photoFixture("oriented-gps.jpg")
                for outage in ["hung", "killed"] {
                    if outage == "hung" { cluster.pause() } else { cluster.kill() }
                    #expect(try await replicas.a.get("/pets").status == 200)
                    #expect(try await replicas.b.get("/api/v1/announcements").status == 200)
                    var form = Self.form(photo)
                    form.values["petName"] = "Reksio \(outage)"
                    let refused = try await replicas.a.submit(form, headers: replicas.visitor)
                    #expect(refused.status == 503, "\(outage)")
                    #expect(refused.header("Retry-After") == "30")
                    #expect(inputValue(refused.text, name: "petName") == "Reksio \(outage)")
                    #expect(replicas.stub.requestCount(path: "POST " + Self.created) == 0)
                    if outage == "hung" { cluster.resume() } else { try cluster.start() }
                }
                var made: Fetched?
                for _ in 0..<60 {
                    let answer = try await replicas.b.submit(Self.form(photo), headers: replicas.visitor)
                    if answer.status == 201 {
                        made = answer
                        break
                    }
                    try await Task.sleep(for: .milliseconds(250))
                }
                #expect(made?.status == 201, "writes work again without a restart")
                let metrics = try await replicas.a.get("/metrics").text
                #expect(metrics.contains("petspot_store_failures_total"))
            }
        }

        static let apiBody =
            #"{"petName":"Burek","species":"DOG","sex":"MALE","lastSeenDate":"2025-11-20","locationLatitude":52.2297,"#
            + #""locationLongitude":21.0122,"phone":"+48 600 100 200","status":"MISSING"}"#
    }
}
