import Foundation
import Testing

@testable import PetDomain

/// The upstream body (`ValidReport.upstreamJSON`) and API bodies read as the backend types them.
@Suite struct ReportJSONTests {
    /// The upstream body of `draft`, parsed back with the package's own parser.
    private func upstreamBody(_ draft: ReportDraft) throws -> (text: String, json: JSONValue) {
        let bytes = try acceptedReport(draft).upstreamJSON()
        let json = try #require(JSONValue.parse(Data(bytes)))
        return (String(decoding: bytes, as: UTF8.self), json)
    }

    @Test func report_body_has_the_backend_key_order_and_typed_values() throws {
        let (_, json) = try upstreamBody(
            reportDraft {
                $0.species = "dog"
                $0.sex = "male"
                $0.status = "missing"
            }
        )
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ReportDraft.fieldNames)
        #expect(json["age"] == .number("5"))
        #expect(json["locationLatitude"] == .number("52.2297"))
        #expect(json["locationLongitude"] == .number("21.0122"))
        #expect(json["species"] == .string("DOG"))
        #expect(json["sex"] == .string("MALE"))
        #expect(json["status"] == .string("MISSING"))
        #expect(json["microchipNumber"] == .string("123456789012345"))
        #expect(json["lastSeenDate"] == .string("2026-11-20"))
        #expect(json["phone"] == .string("+48 123 456 789"))
    }

    @Test func report_body_leaves_out_empty_optional_fields() throws {
        let (text, json) = try upstreamBody(
            reportDraft {
                $0.petName = ""
                $0.breed = " "
                $0.age = ""
                $0.description = ""
                $0.microchipNumber = ""
                $0.phone = ""
                $0.reward = ""
            }
        )
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.key) == [
                "species", "sex", "locationLatitude", "locationLongitude", "email",
                "lastSeenDate", "status",
            ]
        )
        #expect(!text.contains("null") && !text.contains("\"\""))
    }

    @Test func report_body_writes_whole_and_comma_coordinates_as_numbers() throws {
        let (text, json) = try upstreamBody(
            reportDraft {
                $0.locationLatitude = "52,5"
                $0.locationLongitude = "21"
            }
        )
        #expect(json["locationLatitude"] == .number("52.5"))
        #expect(json["locationLongitude"] == .number("21"))
        #expect(text.contains("\"locationLatitude\":52.5,\"locationLongitude\":21,"))
    }

    @Test func report_body_tiny_coordinates_stay_json_numbers() throws {
        let (_, json) = try upstreamBody(
            reportDraft {
                $0.locationLatitude = "0,00001"
                $0.locationLongitude = "-0.5"
            }
        )
        guard case .number(let latitude) = json["locationLatitude"] else {
            Issue.record("not a number")
            return
        }
        #expect(Double(latitude) == 0.00001)
        #expect(json["locationLongitude"] == .number("-0.5"))
    }

    @Test(arguments: [
        "He said \"hi\" \\ </script><script>alert(1)</script>", "line\u{2028}sep\u{2029}end\n\ttab",
        "Żółć & <b>bold</b> 🐕", "\u{01}control",
    ])
    func report_body_round_trips_hostile_text_exactly(hostile: String) throws {
        let (_, json) = try upstreamBody(
            reportDraft {
                $0.description = hostile
                $0.petName = "x" + hostile
            }
        )
        #expect(json["description"] == .string(hostile))
        #expect(json["petName"] == .string("x" + hostile))
    }

    @Test func api_body_that_passes_validates_like_the_form() throws {
        let result = ReportValidation.validate(
            jsonBody: Array(apiBody().utf8),
            localToday: reportToday,
            upstreamToday: reportToday
        )
        let report = try result.get()
        #expect(report.age == 5 && report.coordinate.latitude == 52.2297 && report.species == .dog)
    }

    @Test func api_body_null_optional_fields_are_left_out() throws {
        let body = apiBody(#""breed":null,"reward":null,"phone":null,"microchipNumber":null,"age":null"#)
        let report = try ReportValidation.validate(
            jsonBody: Array(body.utf8),
            localToday: reportToday,
            upstreamToday: reportToday
        ).get()
        #expect(report.breed == nil && report.reward == nil && report.age == nil)
        let members = try #require(JSONValue.parse(Data(report.upstreamJSON())))
        #expect(members["breed"] == nil && members["age"] == nil && members["phone"] == nil)
    }

    /// The API takes what the backend takes and the apps let through (`ReportLimits.api`): any reward
    /// text up to the apps' 120 characters, names of any length; the form keeps its own limits.
    @Test func api_body_takes_a_free_text_reward_up_to_120_characters_and_a_long_name() throws {
        let name = String(repeating: "n", count: 109)
        let reward = "A big hug and a box of chocolates"
        let report = try ReportValidation.validate(
            jsonBody: Array(apiBody("\"petName\":\"\(name)\",\"reward\":\"\(reward)\"").utf8),
            localToday: reportToday,
            upstreamToday: reportToday
        ).get()
        #expect(report.petName == name && report.reward == reward)
        let longest = String(repeating: "r", count: 120)
        #expect(apiErrors(apiBody("\"reward\":\"\(longest)\"")).isEmpty)
        #expect(
            apiErrors(apiBody("\"reward\":\"\(longest)r\""))
                == [ReportFieldError(field: "reward", code: .invalidFormat, problem: .tooLong(max: 120))]
        )
        let formDraft = reportDraft {
            $0.petName = name
            $0.reward = reward
        }
        #expect(reportErrors(formDraft).map(\.field) == ["petName", "reward"])
    }

    @Test(arguments: ["photoUrl", "id", "managementPassword"])
    func api_body_with_an_unknown_key_is_invalid_field(key: String) {
        let errors = apiErrors(apiBody("\"\(key)\":\"x\""))
        #expect(errors == [ReportFieldError(field: key, code: .invalidField, problem: .unknownField)])
    }

    @Test func api_body_with_a_number_where_a_string_is_expected_is_invalid_format() {
        #expect(
            apiErrors(apiBody(#""microchipNumber":123456789012345"#))
                == [ReportFieldError(field: "microchipNumber", code: .invalidFormat, problem: .notText)]
        )
        #expect(
            apiErrors(apiBody(#""locationLatitude":"52.1""#))
                == [ReportFieldError(field: "locationLatitude", code: .invalidFormat, problem: .notANumber)]
        )
        #expect(apiErrors(apiBody(#""age":true"#)).map(\.field) == ["age"])
    }

    @Test func api_body_null_for_a_required_field_is_missing_value() {
        #expect(apiErrors(apiBody(#""species":null"#)) == [ReportFieldError(field: "species", code: .missingValue, problem: .required)])
    }

    @Test(arguments: ["[]", "\"text\"", "not json", "", "{\"species\":"])
    func api_body_that_is_not_an_object_is_missing_value(body: String) {
        let errors = apiErrors(body)
        #expect(errors == [ReportFieldError(field: "", code: .missingValue, problem: .notAnObject)])
        #expect(errors.first?.message == "Required")
    }

    @Test func api_body_errors_keep_the_backend_order_with_unknown_keys_after_fields() {
        let body = #"{"photoUrl":"/x.jpg","status":"FOUND","age":0,"species":7,"locationLatitude":1,"locationLongitude":2}"#
        let errors = apiErrors(body)
        #expect(errors.map(\.field) == ["species", "sex", "age", "lastSeenDate", "photoUrl", "contact"])
        #expect(errors.first == ReportFieldError(field: "species", code: .invalidFormat, problem: .notText))
    }

    @Test func api_body_with_a_mistyped_email_does_not_also_claim_no_contact() {
        #expect(apiErrors(apiBody(#""email":42"#)).map(\.field) == ["email"])
    }

    @Test func api_draft_init_throws_its_type_problems() {
        #expect(throws: ReportRefusal(errors: [ReportFieldError(field: "id", code: .invalidField, problem: .unknownField)])) {
            try ReportDraft(jsonBody: Array(apiBody(#""id":"1""#).utf8))
        }
        #expect((try? ReportDraft(jsonBody: Array(apiBody().utf8)))?.age == "5")
    }
}
