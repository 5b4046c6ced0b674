import Foundation
import PetDomain
import Testing

/// docs/upstream.md §1 (failed fetch vs empty list) and §2 list-level rules.
@Suite struct ListRuleTests {
    @Test func list_skips_invalid_items_keeps_first_valid_duplicate_and_preserves_upstream_order() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("mixed-list.json"))
        #expect(outcome.items.map(\.id) == ["m1", "m9", "m10", "7", "m12"])
        #expect(outcome.items[0].petName == "Pet m1")
        #expect(outcome.items[1].petName == String(repeating: "x", count: 101))
        #expect(outcome.items[3].petName == "Numeric seven")
        #expect(outcome.items[4].petName == "Valid m12")
        let skipped = outcome.skipped.map { "\($0.id ?? "-"):\($0.reason.rawValue)" }
        #expect(
            skipped == [
                "-:notAnObject", "-:invalidId", "m2:invalidStatus", "m3:invalidSpecies", "m4:invalidLastSeenDate",
                "m5:invalidCreatedAt", "m6:invalidUpdatedAt", "m7:updatedBeforeCreated", "m8:invalidPlace",
                "m1:duplicateId", "7:duplicateId", "m12:invalidSpecies",
            ]
        )
    }

    @Test func list_skips_items_with_unknown_species() throws {
        let outcome = try decodeList([itemJSON(["id": "a", "species": "DINOSAUR"]), itemJSON(["id": "b"])])
        #expect(outcome.items.map(\.id) == ["b"])
        #expect(outcome.skipped == [SkippedItem(id: "a", reason: .invalidSpecies, detail: "species 'DINOSAUR'")])
    }

    @Test func list_duplicate_ids_keep_the_first_and_report_the_rest() throws {
        let outcome = try decodeList([
            itemJSON(["id": "x", "petName": "First"]),
            itemJSON(["id": " x ", "petName": "Second"]),
            itemJSON(["id": "x", "petName": "Third"]),
        ])
        #expect(outcome.items.map(\.petName) == ["First"])
        #expect(outcome.skipped.map(\.reason) == [.duplicateId, .duplicateId])
        #expect(outcome.skipped.allSatisfy { $0.id == "x" })
    }

    @Test func list_warnings_name_the_item_and_field() throws {
        let outcome = try decodeList([itemJSON(["id": "w", "email": "nope", "age": -2])])
        #expect(outcome.items.count == 1)
        #expect(Set(outcome.warnings.map(\.field)) == ["email", "age"])
        #expect(outcome.warnings.allSatisfy { $0.id == "w" })
    }

    @Test func list_warnings_of_a_dropped_duplicate_are_not_reported() throws {
        let outcome = try decodeList([itemJSON(["id": "d"]), itemJSON(["id": "d", "email": "bad"])])
        #expect(outcome.warnings.isEmpty)
    }

    @Test func list_accepts_data_announcements_and_bare_array_wrappers() throws {
        let item = itemJSON(["id": "one"])
        for body in [try jsonData(["data": [item]]), try jsonData(["announcements": [item]]), try jsonData([item])] {
            #expect(try AnnouncementDecoder.decodeList(body).items.map(\.id) == ["one"])
        }
    }

    /// The list is read item by item (no value tree of the whole body): a repeated key still means
    /// its last value, and `data` is still tried before `announcements`, as when the tree was built.
    @Test(arguments: [
        (#"{"data":[$A],"data":[$B]}"#, ["b"]),
        (#"{"data":[$A],"data":null,"announcements":[$B]}"#, ["b"]),
        (#"{"announcements":[$A],"data":[$B]}"#, ["b"]),
        (#"{"data":[$A],"announcements":[$B]}"#, ["a"]),
        (#"{"data":[$A,$B],"other":[$B],"data2":{"data":[$B]}}"#, ["a", "b"]),
        (#"{"other":[$B],"data":[$A,$A]}"#, ["a"]),
        (#"[$A,{"data":[$B]}]"#, ["a"]),
    ])
    func list_wrapper_keys_keep_their_last_value_and_their_order(body: String, ids: [String]) throws {
        let itemA = String(decoding: try jsonData(itemJSON(["id": "a"])), as: UTF8.self)
        let itemB = String(decoding: try jsonData(itemJSON(["id": "b"])), as: UTF8.self)
        let text = body.replacingOccurrences(of: "$A", with: itemA).replacingOccurrences(of: "$B", with: itemB)
        let outcome = try AnnouncementDecoder.decodeList(bytes: Array(text.utf8))
        #expect(outcome.items.map(\.id) == ids)
    }

    @Test(arguments: [#"{"data":[$A],"data":null}"#, #"{"data":[$A],"data":{}}"#, #"{"announcements":[$A],"announcements":3}"#])
    func list_wrapper_whose_last_value_is_not_an_array_is_a_failure(body: String) throws {
        let item = String(decoding: try jsonData(itemJSON(["id": "a"])), as: UTF8.self)
        let text = body.replacingOccurrences(of: "$A", with: item)
        #expect(throws: DecodingFailure.missingListArray) { try AnnouncementDecoder.decodeList(bytes: Array(text.utf8)) }
    }

    @Test func list_items_read_before_a_broken_end_are_not_a_list() throws {
        let item = String(decoding: try jsonData(itemJSON(["id": "a"])), as: UTF8.self)
        for body in ["{\"data\":[\(item),\(item)", "[\(item)] [", "{\"data\":[\(item)],\"x\":tru}"] {
            #expect(throws: DecodingFailure.notJSON) { try AnnouncementDecoder.decodeList(bytes: Array(body.utf8)) }
        }
    }

    @Test func list_empty_array_is_an_empty_list_not_a_failure() throws {
        let outcome = try AnnouncementDecoder.decodeList(Data(#"{"data":[]}"#.utf8))
        #expect(outcome.items.isEmpty)
        #expect(outcome.skipped.isEmpty)
    }

    @Test(arguments: [
        "", "<html>502 Bad Gateway</html>", "{\"data\":[", "{'data':[]}", "[1,]", "{\"data\":[]} x",
        "nul", "{\"data\":[\"\\ud800\\u\"]}", "{\"a\":01}", "{\"a\":\"tab\there\"}",
    ])
    func list_body_that_is_not_JSON_is_a_failure(body: String) {
        #expect(throws: DecodingFailure.notJSON) { try AnnouncementDecoder.decodeList(Data(body.utf8)) }
    }

    @Test func list_body_with_invalid_UTF8_is_not_JSON() {
        let body = Data([0x7B, 0x22, 0x64, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
        #expect(throws: DecodingFailure.notJSON) { try AnnouncementDecoder.decodeList(body) }
    }

    @Test(arguments: [
        "{\"data\":null}", "{\"data\":{}}", "{}", "{\"items\":[]}", "\"text\"", "42", "null",
        "{\"data\":\"[]\"}",
    ])
    func list_wrapper_without_an_array_is_a_failure(body: String) {
        #expect(throws: DecodingFailure.missingListArray) { try AnnouncementDecoder.decodeList(Data(body.utf8)) }
    }

    @Test func list_failures_have_log_messages() {
        #expect(DecodingFailure.notJSON.message == "body is not JSON")
        #expect(DecodingFailure.missingListArray.message == "list wrapper has no array")
        #expect(DecodingFailure.notAnObject.message == "details body is not an object")
    }

    @Test func list_nesting_deeper_than_the_limit_is_not_JSON() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: DecodingFailure.notJSON) { try AnnouncementDecoder.decodeList(Data(deep.utf8)) }
    }

    @Test func list_of_thousands_of_items_decodes_completely() throws {
        let items = (0..<3000).map { itemJSON(["id": "item-\($0)"]) }
        let outcome = try decodeList(items)
        #expect(outcome.items.count == 3000)
        #expect(outcome.items.last?.id == "item-2999")
    }

    @Test func list_tolerates_escapes_bom_and_unicode_in_strings() throws {
        let body = Data(
            [0xEF, 0xBB, 0xBF]
                + Array(
                    #"""
                    {"data":[{"id":"e1","petName":"\u0141\u00f3d\u017a \ud83d\udc36 \"Reksio\"\n","species":"DOG","status":"MISSING",
                    "lastSeenDate":"2024-11-15","locationLatitude":52,"locationLongitude":21}]}
                    """#.utf8
                )
        )
        let outcome = try AnnouncementDecoder.decodeList(body)
        #expect(outcome.items.first?.petName == "Łódź 🐶 \"Reksio\"")
    }

    @Test func details_accepts_a_bare_object_and_a_data_wrapper() throws {
        let item = itemJSON(["id": "wrapped"])
        #expect(try AnnouncementDecoder.decodeDetails(try jsonData(item)).get().0.id == "wrapped")
        #expect(try AnnouncementDecoder.decodeDetails(try jsonData(["data": item])).get().0.id == "wrapped")
    }

    @Test func details_failures_distinguish_body_from_invalid_data() throws {
        #expect(AnnouncementDecoder.decodeDetails(Data("oops".utf8)).failureValue == .body(.notJSON))
        #expect(AnnouncementDecoder.decodeDetails(Data("[]".utf8)).failureValue == .body(.notAnObject))
        #expect(AnnouncementDecoder.decodeDetails(Data(#"{"data":null}"#.utf8)).failureValue == .body(.notAnObject))
        let invalid = AnnouncementDecoder.decodeDetails(try jsonData(itemJSON(["status": "ADOPTED"]))).failureValue
        guard case .invalid(let skipped) = invalid else {
            Issue.record("expected invalid data, got \(String(describing: invalid))")
            return
        }
        #expect(skipped.reason == .invalidStatus)
        #expect(invalid?.message == "invalid announcement (invalidStatus): status 'ADOPTED'")
    }
}

extension Result {
    /// The failure, or nil on success.
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
