import DemoUpstream
import Foundation
import TestSupport
import Testing

/// The demo upstream's `POST /api/v1/announcements`, over real HTTP, against the backend's
/// behaviour in docs/upstream.md §6 and docs/demo-upstream-writes.md.
@Suite struct DemoUpstreamWriteTests {
    private func quoted(_ text: String) -> String { DemoWriteClient.quoted(text) }

    @Test func create_answers_201_with_the_announcement_and_a_six_digit_password() async throws {
        try await DemoWriteClient.with { client in
            let body = DemoWriteClient.json(DemoWriteClient.report([("petName", #""  Rex  ""#), ("age", "3"), ("reward", #""100 PLN""#)]))
            let created = try await client.create(json: body)
            let object = try DemoWriteClient.object(created)

            #expect(created.status == 201)
            #expect(created.header("request-id")?.count == 10)
            let keys = Set(object.keys)
            #expect(keys.count == 19 && keys.contains("managementPassword") && keys.contains("photoUrl") && keys.contains("breed"))
            #expect(object["photoUrl"] is NSNull && object["breed"] is NSNull)
            let password = try #require(object["managementPassword"] as? String)
            #expect(password.count == 6 && password.allSatisfy(\.isASCII) && Int(password) != nil)
            let id = try #require(object["id"] as? String)
            #expect(UUID(uuidString: id) != nil && id == id.lowercased())
            let createdAt = try #require(object["createdAt"] as? String)
            #expect(createdAt == object["updatedAt"] as? String)
            #expect(createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            // Validation trims, storage does not (the backend's trap).
            #expect(object["petName"] as? String == "  Rex  ")
            #expect(object["age"] as? Int == 3)

            let details = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(id)"))
            #expect(details["managementPassword"] == nil)
            #expect(details["petName"] as? String == "  Rex  " && details["createdAt"] as? String == createdAt)
        }
    }

    /// The first problem wins, in the schema's key order, then unknown keys, then the contact rule.
    @Test(
        arguments: [
            ([("species", nil)], "MISSING_VALUE", "species", "Required"),
            ([("petName", "5"), ("species", nil)], "INVALID_FORMAT", "petName", "Expected string, received number"),
            ([("species", #""   ""#)], "MISSING_VALUE", "species", "cannot be empty"),
            ([("breed", "null"), ("age", "0")], "INVALID_FORMAT", "breed", "Expected string, received null"),
            ([("age", "0"), ("email", #""nope""#)], "INVALID_FORMAT", "age", "age must be a positive integer"),
            ([("age", "2.5")], "INVALID_FORMAT", "age", "Expected integer, received float"),
            ([("microchipNumber", #""12-34""#)], "INVALID_FORMAT", "microchipNumber", "must contain only digits"),
            ([("locationLatitude", "91")], "INVALID_FORMAT", "locationLatitude", "latitude must be between -90 and 90"),
            ([("locationLongitude", #""21""#)], "INVALID_FORMAT", "locationLongitude", "Expected number, received string"),
            ([("email", #""owner@example""#)], "INVALID_FORMAT", "email", "email format is invalid"),
            ([("phone", #""call me""#)], "INVALID_FORMAT", "phone", "invalid phone format"),
            ([("lastSeenDate", #""20.11.2025""#)], "INVALID_FORMAT", "lastSeenDate", "invalid date format (expected YYYY-MM-DD)"),
            ([("status", #""LOST""#)], "INVALID_FORMAT", "status", "status must be either MISSING or FOUND"),
            ([("status", nil)], "MISSING_VALUE", "status", "status must be either MISSING or FOUND"),
            ([("reward", "null")], "INVALID_FORMAT", "reward", "Expected string, received null"),
            ([("photoUrl", #""/images/x.jpg""#), ("id", #""1""#)], "INVALID_FIELD", "photoUrl", "photoUrl is not a valid field"),
            ([("email", nil)], "MISSING_CONTACT", "contact", "at least one contact method (email or phone) is required"),
        ] as [([(String, String?)], String, String, String)]
    )
    func first_problem_is_reported_in_the_schema_order(changes: [(String, String?)], code: String, field: String, message: String) async throws {
        try await DemoWriteClient.with { client in
            let refused = try await client.createReport(changes)
            let error = try DemoWriteClient.error(refused)

            #expect(refused.status == 400)
            #expect(error.code == code && error.field == field && error.message == message)
        }
    }

    @Test func phone_alone_is_enough_contact() async throws {
        try await DemoWriteClient.with { client in
            let created = try await client.createReport([("email", nil), ("phone", #""600 100 200""#)])
            #expect(created.status == 201)
        }
    }

    /// The backend compares the date with "now" as UTC midnight of that day: today (UTC) passes, tomorrow does not.
    @Test func last_seen_date_is_judged_by_the_utc_calendar() async throws {
        try await DemoWriteClient.with { client in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let today = Date()
            let tomorrow = try #require(calendar.date(byAdding: .day, value: 1, to: today))
            func day(_ date: Date) -> String {
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            }

            let accepted = try await client.createReport([("lastSeenDate", quoted(day(today)))])
            let refused = try await client.createReport([("lastSeenDate", quoted(day(tomorrow)))])
            let impossible = try await client.createReport([("lastSeenDate", #""2025-13-01""#)])

            #expect(accepted.status == 201)
            #expect(refused.status == 400)
            #expect(try DemoWriteClient.error(refused).message == "lastSeenDate cannot be in the future")
            // V8 reads month 13 as an invalid date, which compares as "in the future".
            #expect(try DemoWriteClient.error(impossible).message == "lastSeenDate cannot be in the future")
        }
    }

    @Test func duplicate_microchip_is_a_409_conflict() async throws {
        try await DemoWriteClient.with { client in
            _ = try await client.createValid([("microchipNumber", #""616093900012345""#)])
            let again = try await client.createReport([("microchipNumber", #""616093900012345""#)])
            let list = try DemoWriteClient.object(try await client.get("/api/v1/announcements"))
            let seeded = try #require((list["data"] as? [[String: Any]])?.compactMap { $0["microchipNumber"] as? String }.first)
            let seededAgain = try await client.createReport([("microchipNumber", quoted(seeded))])

            #expect(again.status == 409)
            let error = try DemoWriteClient.error(again)
            #expect(error.code == "CONFLICT" && error.field == "microchipNumber" && error.message == "An entity with this value already exists")
            #expect(seededAgain.status == 409)
        }
    }

    @Test func malformed_json_is_a_500_and_a_body_that_is_not_json_is_required() async throws {
        try await DemoWriteClient.with { client in
            let malformed = try await client.create(json: #"{"species": "DOG",}"#)
            let scalar = try await client.create(json: #""DOG""#)
            let notJSON = try await client.create(json: "species=DOG", contentType: "application/x-www-form-urlencoded")
            let array = try await client.create(json: "[]")

            #expect(try malformed.status == 500 && DemoWriteClient.error(malformed).code == "INTERNAL_SERVER_ERROR")
            #expect(scalar.status == 500)
            #expect(notJSON.status == 400)
            let required = try DemoWriteClient.error(notJSON)
            #expect(required.code == "MISSING_VALUE" && required.message == "Required" && required.field == nil)
            #expect(try array.status == 400 && DemoWriteClient.error(array).message == "Expected object, received array")
        }
    }

    @Test func json_over_100_kb_is_413_payload_too_large() async throws {
        try await DemoWriteClient.with { client in
            let fits = DemoWriteClient.json(DemoWriteClient.report([("description", quoted(String(repeating: "a", count: 90_000)))]))
            let huge = DemoWriteClient.json(DemoWriteClient.report([("description", quoted(String(repeating: "a", count: 100 * 1024)))]))

            let accepted = try await client.create(json: fits)
            let refused = try await client.create(json: huge)

            #expect(accepted.status == 201)
            #expect(refused.status == 413)
            #expect(try DemoWriteClient.error(refused).code == "PAYLOAD_TOO_LARGE")
        }
    }

    @Test func other_methods_and_paths_answer_like_the_express_app() async throws {
        try await DemoWriteClient.with { client in
            let id = try await client.createValid().id
            let postDetails = try await client.send(
                "POST",
                "/api/v1/announcements/\(id)",
                body: Data("{}".utf8),
                headers: ["Content-Type": "application/json"]
            )
            let put = try await client.send("PUT", "/api/v1/announcements", body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
            let preflight = try await client.send(
                "OPTIONS",
                "/api/v1/announcements",
                body: nil,
                headers: ["Access-Control-Request-Headers": "content-type"]
            )

            #expect(try postDetails.status == 404 && DemoWriteClient.error(postDetails).code == "NOT_FOUND")
            #expect(put.status == 404)
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            #expect(preflight.header("Access-Control-Allow-Headers") == "content-type")
        }
    }
}
