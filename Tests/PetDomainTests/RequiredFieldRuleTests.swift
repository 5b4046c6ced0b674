import Foundation
import PetDomain
import Testing

/// docs/upstream.md §2 rows id, status, species: invalid → skip (list) / error (details).
@Suite struct RequiredFieldRuleTests {
    @Test func id_string_is_trimmed() throws {
        let item = try validItem(["id": "  abc-1 \n"])
        #expect(item.id == "abc-1")
    }

    @Test func id_integer_becomes_its_decimal_text() throws {
        #expect(try validItem(["id": 42]).id == "42")
        // Digits beyond Double's precision must survive (our parser keeps number text).
        let body = Data(
            #"{"id":12345678901234567890,"species":"DOG","status":"MISSING","lastSeenDate":"2024-11-15","locationLatitude":1,"locationLongitude":2}"#
                .utf8
        )
        let decoded = try AnnouncementDecoder.decodeDetails(body).get().0
        #expect(decoded.id == "12345678901234567890")
    }

    @Test func id_invalid_values_are_rejected() throws {
        let invalid: [(String, Any)] = [
            ("missing", absent), ("null", NSNull()), ("empty", ""), ("blank", "   "),
            ("fraction", 4.5), ("boolean", true), ("object", ["x": 1]),
        ]
        for (label, value) in invalid {
            #expect(try skipReason(["id": value]) == .invalidId, "\(label)")
        }
    }

    @Test(arguments: [
        ("MISSING", AnnouncementStatus.missing), ("missing", .missing), ("Active", .missing), ("ACTIVE", .missing),
        ("Lost", .missing), ("LOST", .missing), ("FOUND", .found), ("found", .found), ("Found", .found),
        ("CLOSED", .closed), (" closed ", .closed),
    ])
    func status_maps_every_dialect_spelling_case_insensitively(raw: String, expected: AnnouncementStatus) throws {
        #expect(try validItem(["status": raw]).status == expected)
    }

    @Test(arguments: ["ADOPTED", "", "MISSINGX", "open"])
    func status_unknown_values_are_invalid(raw: String) throws {
        #expect(try skipReason(["status": raw]) == .invalidStatus)
    }

    @Test func status_missing_is_invalid() throws {
        #expect(try skipReason(["status": absent]) == .invalidStatus)
        #expect(try skipReason(["status": NSNull()]) == .invalidStatus)
    }

    @Test(arguments: [
        ("DOG", Species.dog), ("dog", .dog), ("Dog", .dog), ("CAT", .cat), ("bird", .bird),
        ("RABBIT", .rabbit), ("Rabbit", .rabbit), ("OTHER", .other), (" cat ", .cat),
    ])
    func species_is_read_case_insensitively(raw: String, expected: Species) throws {
        #expect(try validItem(["species": raw]).species == expected)
    }

    @Test(arguments: ["DINOSAUR", "Golden Retriever", "dogs", "", "HAMSTER"])
    func species_outside_the_known_set_is_invalid(raw: String) throws {
        #expect(try skipReason(["species": raw]) == .invalidSpecies)
    }

    @Test func species_invalid_detail_names_the_value_for_the_log() throws {
        guard case .failure(.invalid(let skipped)) = try decodeItem(["species": "DINOSAUR"]) else {
            Issue.record("expected an invalid item")
            return
        }
        #expect(skipped.id == "550e8400-e29b-41d4-a716-446655440000")
        #expect(skipped.detail == "species 'DINOSAUR'")
    }

    @Test func species_and_status_expose_display_and_api_values() {
        #expect(Species.rabbit.displayName == "Rabbit")
        #expect(Species.allCases.map(\.apiValue) == ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"])
        #expect(AnnouncementStatus.allCases.map(\.label) == ["MISSING", "FOUND", "CLOSED"])
        #expect(AnnouncementStatus.found.apiValue == "FOUND")
    }
}
