import Foundation
import PetDomain
import Testing

/// docs/upstream.md §2 rows petName, description, sex, age, microchipNumber, email, phone.
@Suite struct OptionalFieldRuleTests {
    @Test func petName_is_trimmed() throws {
        #expect(try validItem(["petName": "  Burek \n"]).petName == "Burek")
    }

    @Test func petName_missing_or_blank_shows_as_unnamed_pet() throws {
        for value: Any in [absent, NSNull(), "", "   "] {
            let item = try validItem(["petName": value])
            #expect(item.petName == nil)
            #expect(item.displayName == "Unnamed pet")
        }
    }

    @Test func petName_of_exactly_100_characters_is_valid() throws {
        let name = String(repeating: "ż", count: 100)
        #expect(try validItem(["petName": name]).displayName == name)
    }

    /// The backend and the apps set no name limit, so a long name is a real report: kept whole.
    @Test func petName_of_any_length_is_kept_whole() throws {
        let name = String(repeating: "Sir Reginald ", count: 40).trimmingCharacters(in: .whitespaces)
        #expect(try skipReason(["petName": name]) == nil)
        #expect(try validItem(["petName": "  " + name + "  "]).petName == name)
    }

    @Test func description_is_optional_and_passes_through_unchanged() throws {
        #expect(try validItem(["description": NSNull()]).description == nil)
        let long = String(repeating: "Zaginął piesek. ", count: 125)
        let text = String(long.prefix(2000))
        #expect(text.count == 2000)
        #expect(try validItem(["description": text]).description == trimmedForExpectation(text))
    }

    @Test func description_keeps_diacritics_html_and_entities_exactly() throws {
        let text = "Łódź, Żółć — <script>alert(1)</script> &amp; <b>bold</b> \"quoted\"\nsecond line"
        #expect(try validItem(["description": text]).description == text)
        #expect(try validItem(["breed": "<i>Owczarek</i>"]).breed == "<i>Owczarek</i>")
    }

    @Test(arguments: [
        ("MALE", Sex.male), ("male", .male), ("Female", .female), ("FEMALE", .female),
        ("UNKNOWN", .unknown), ("neutered", .unknown), ("", .unknown),
    ])
    func sex_is_read_case_insensitively_and_other_values_are_unknown(raw: String, expected: Sex) throws {
        #expect(try validItem(["sex": raw]).sex == expected)
    }

    @Test func sex_missing_is_unknown() throws {
        #expect(try validItem(["sex": absent]).sex == .unknown)
        #expect(try validItem(["sex": NSNull()]).sex == .unknown)
    }

    @Test func sex_is_read_from_gender_in_dialect_B() throws {
        #expect(try validItem(["sex": absent, "gender": "FEMALE"]).sex == .female)
    }

    @Test func age_non_negative_integer_is_kept() throws {
        #expect(try validItem(["age": 0]).age == 0)
        #expect(try validItem(["age": 12]).age == 12)
        #expect(try validItem(["age": "5"]).age == 5)
        #expect(try validItem(["age": 3.0]).age == 3)
    }

    @Test func age_invalid_is_dropped_with_a_warning() throws {
        for value: Any in [-1, 2.5, "five", "5 years", true] {
            let (item, warnings) = try validItemWithWarnings(["age": value])
            #expect(item.age == nil)
            #expect(warnings.map(\.field) == ["age"])
            #expect(warnings.first?.id == item.id)
        }
    }

    @Test func age_null_is_absent_without_warning() throws {
        let (item, warnings) = try validItemWithWarnings(["age": NSNull()])
        #expect(item.age == nil)
        #expect(warnings.isEmpty)
    }

    @Test func microchipNumber_is_optional_text_and_numbers_keep_all_digits() throws {
        #expect(try validItem(["microchipNumber": NSNull()]).microchipNumber == nil)
        #expect(try validItem(["microchipNumber": " 123456789012345 "]).microchipNumber == "123456789012345")
        let body = Data(
            (#"{"id":"x","species":"cat","status":"found","lastSeenDate":"2024-11-15","latitude":1,"longitude":2,"#
                + #""microchipNumber":985112003456789012}"#).utf8
        )
        #expect(try AnnouncementDecoder.decodeDetails(body).get().0.microchipNumber == "985112003456789012")
    }

    @Test(arguments: [
        "owner@example.com", "jan.kowalski+psy@poczta.example.pl", "o'brien@example.ie",
        "zofia@żółć.pl",
    ])
    func email_that_looks_like_an_address_is_kept(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["email": raw])
        #expect(item.email == raw)
        #expect(warnings.isEmpty)
    }

    @Test(arguments: [
        "owner at example.com", "owner@", "@example.com", "owner@example", "a@b@example.com",
        "owner@exa mple.com", "<owner@example.com>", "owner@example.c", "javascript:alert(1)//@x.com",
        ".owner@example.com", "owner@-example.com",
    ])
    func email_that_does_not_look_like_an_address_is_dropped_with_a_warning(raw: String) throws {
        let (item, warnings) = try validItemWithWarnings(["email": raw])
        #expect(item.email == nil)
        #expect(warnings.map(\.field) == ["email"])
    }

    @Test func email_is_read_from_contactEmail_in_dialect_C() throws {
        #expect(try validItem(["email": absent, "contactEmail": "anna@example.com"]).email == "anna@example.com")
    }

    @Test func phone_free_text_is_kept_without_a_tel_link() throws {
        let item = try validItem(["phone": "555-PETS"])
        #expect(item.phone == "555-PETS")
        #expect(item.phoneLinkTarget == nil)
    }

    @Test(arguments: [
        ("+48 123 456 789", "tel:+48123456789"), ("(12) 345-67-89", "tel:123456789"),
        ("+48123456789", "tel:+48123456789"),
    ])
    func phone_with_only_digits_spaces_plus_dash_parens_gets_a_tel_link(raw: String, target: String) throws {
        #expect(try validItem(["phone": raw]).phoneLinkTarget == target)
    }

    @Test(arguments: ["call 600 100 200", "600.100.200", "600100200 ext. 5", "+-()", "600\u{00A0}100"])
    func phone_with_other_characters_gets_no_tel_link(raw: String) throws {
        #expect(try validItem(["phone": raw]).phoneLinkTarget == nil)
    }

    @Test func phone_is_read_from_contactPhone_in_dialects_C_and_D() throws {
        #expect(try validItem(["phone": absent, "contactPhone": "+48 600 700 800"]).phone == "+48 600 700 800")
    }
}

/// The trimming the domain applies, restated independently for expectations.
func trimmedForExpectation(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
}
