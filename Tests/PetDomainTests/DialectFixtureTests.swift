import Foundation
import PetDomain
import Testing

/// docs/upstream.md §1: each upstream dialect decodes from a real-shaped fixture into the same model.
@Suite struct DialectFixtureTests {
    @Test func dialect_A_list_decodes_every_field() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("dialect-a-list.json"))
        #expect(outcome.items.map(\.id) == ["a1", "a2", "a3"])
        #expect(outcome.skipped.isEmpty)
        #expect(outcome.warnings.isEmpty)

        let burek = outcome.items[0]
        #expect(burek.petName == "Burek")
        #expect(burek.species == .dog)
        #expect(burek.status == .missing)
        #expect(burek.breed == "Kundel")
        #expect(burek.sex == .male)
        #expect(burek.age == 3)
        #expect(burek.description == "Uciekł z ogrodu w Łodzi. Żółta obroża, bardzo przyjazny.")
        #expect(burek.microchipNumber == "616093900012345")
        #expect(burek.place == .coordinates(try coordinate(52.2297, 21.0122), address: nil))
        #expect(burek.lastSeenDate == (try day(2025, 11, 17)))
        #expect(burek.email == "jan.kowalski@example.pl")
        #expect(burek.phone == "+48 600 100 200")
        #expect(burek.photo == .upstreamPath("/images/burek.webp"))
        #expect(burek.reward == Reward(amount: 500, currency: "PLN"))
        #expect(burek.createdAt == utc(2025, 11, 18, 10))
        #expect(burek.updatedAt == utc(2025, 12, 1, 14, 24, 13))
    }

    @Test func dialect_A_list_tolerates_nulls_whole_coordinates_and_absolute_photos() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("dialect-a-list.json"))
        let mila = outcome.items[1]
        #expect(mila.place.coordinate == (try coordinate(50, 17)))
        #expect(mila.status == .found)
        #expect(mila.email == nil)
        #expect(mila.reward == nil)
        #expect(mila.age == nil)
        #expect(mila.photo?.urlString == "https://cdn.example.com/mila.jpg")

        let rabbit = outcome.items[2]
        #expect(rabbit.displayName == "Unnamed pet")
        #expect(rabbit.sex == .unknown)
        #expect(rabbit.phoneLinkTarget == nil)
        #expect(rabbit.reward?.amount == Decimal(string: "1500.5"))
        #expect(rabbit.description == "<script>alert(1)</script> &amp; friends")
    }

    @Test func dialect_A_details_decodes_the_seed_000_sample() throws {
        let (item, warnings) = try AnnouncementDecoder.decodeDetails(try fixture("dialect-a-details.json")).get()
        #expect(warnings.isEmpty)
        #expect(item.id == "550e8400-e29b-41d4-a716-446655440000")
        #expect(item.microchipNumber == "123456789012345")
        #expect(Format.microchip(item.microchipNumber ?? "") == "123-456-789-012-345")
        #expect(item.reward?.displayText == "500 PLN")
        #expect(item.createdAt == utc(2024, 11, 20, 10, 30))
        #expect(item.updatedAt == utc(2024, 12, 1, 14, 24, 13))
        #expect(item.phoneLinkTarget == "tel:+48123456789")
    }

    @Test func dialect_B_details_reads_active_gender_and_city_with_radius() throws {
        let (item, warnings) = try AnnouncementDecoder.decodeDetails(try fixture("dialect-b-details.json")).get()
        #expect(warnings.isEmpty)
        #expect(item.status == .missing)
        #expect(item.status.label == "MISSING")
        #expect(item.sex == .male)
        #expect(item.place == .city(name: "Kamionka", radiusKm: 5))
        #expect(Format.place(item.place) == "Kamionka ±5 km")
        #expect(item.photo?.urlString == "https://images.dog.ceo/breeds/terrier-yorkshire/n02094433_1010.jpg")
        #expect(item.description == "Zaginął piesek York wabi się Fredi Kamionka gmina burzenin")
        #expect(item.phoneLinkTarget == "tel:+48123456789")
        #expect(Format.date(item.lastSeenDate) == "Nov 18, 2025")
        #expect(item.microchipNumber == nil)
        #expect(item.reward == nil)
    }

    @Test func dialect_C_list_reads_numeric_ids_flat_latitude_contact_fields_and_number_rewards() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("dialect-c-list.json"))
        #expect(outcome.items.map(\.id) == ["42", "43"])
        let luna = outcome.items[0]
        #expect(luna.species == .cat)
        #expect(luna.status == .missing)
        #expect(luna.place.coordinate == (try coordinate(50.0647, 19.945)))
        #expect(luna.email == "anna@example.com")
        #expect(luna.phone == "+48 600 700 800")
        #expect(luna.reward == Reward(amount: 300, currency: nil))
        #expect(luna.createdAt == utc(2025, 11, 2, 18))

        let kiwi = outcome.items[1]
        #expect(kiwi.species == .bird)
        #expect(kiwi.status == .found)
        #expect(kiwi.place.coordinate == (try coordinate(51, 17)))
        #expect(kiwi.phone == "555-PETS")
        #expect(kiwi.createdAt == utc(2025, 11, 10, 9, milliseconds: 250))
        // reward 0 is not > 0: dropped, with a warning naming the item.
        #expect(kiwi.reward == nil)
        #expect(
            outcome.warnings == [
                FieldWarning(
                    id: "43",
                    field: "reward",
                    detail: "not a positive amount with an optional currency: '0'"
                )
            ]
        )
    }

    @Test func dialect_D_list_reads_the_announcements_wrapper_and_nested_location() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("dialect-d-list.json"))
        #expect(outcome.items.map(\.id) == ["uuid-string", "d-2"])
        #expect(outcome.skipped.isEmpty)
        let max = outcome.items[0]
        #expect(max.species == .dog)
        #expect(max.status == .missing)
        #expect(max.place == .coordinates(try coordinate(52.2297, 21.0122), address: "Warsaw, Poland"))
        #expect(max.contactName == "John Doe")
        #expect(max.phone == "+48 123 456 789")
        #expect(max.photo?.urlString == "https://example.com/photo.jpg")
        // No lastSeenDate in dialect D: the createdAt day stands in.
        #expect(max.lastSeenDate == (try day(2025, 12, 15)))

        let mruczek = outcome.items[1]
        #expect(mruczek.status == .found)
        #expect(mruczek.place == .coordinates(try coordinate(50.0614, 19.9366), address: nil))
        #expect(mruczek.contactName == "Zofia Żółć")
        #expect(mruczek.photo == nil)
        #expect(mruczek.phoneLinkTarget == "tel:123456789")
        #expect(mruczek.updatedAt == utc(2025, 12, 16, 8))
    }
}
