import Foundation
import PetDomain
import Testing

/// Seed 000 "Testing Data": its samples and error cases, as amended by docs/upstream.md §2.
@Suite struct SeedTestingDataTests {
    @Test func seed_000_sample_list_is_valid() throws {
        let outcome = try AnnouncementDecoder.decodeList(try fixture("seed-000-list.json"))
        #expect(outcome.skipped.isEmpty)
        let max = try #require(outcome.items.first)
        #expect(outcome.items.count == 1)
        #expect(max.id == "550e8400-e29b-41d4-a716-446655440000")
        #expect(max.petName == "Max")
        #expect(max.breed == "Golden Retriever")
        #expect(max.age == 5)
        #expect(max.email == "owner@example.com")
        #expect(max.photo == .upstreamPath("/images/max.jpg"))
        #expect(max.lastSeenDate == (try day(2024, 11, 15)))
    }

    @Test func seed_000_sample_details_is_valid() throws {
        let result = AnnouncementDecoder.decodeDetails(try fixture("dialect-a-details.json"))
        let (item, _) = try result.get()
        #expect(item.petName == "Max")
        #expect(item.reward?.amount == 500)
    }

    @Test func seed_000_invalid_species_is_an_error_in_details_and_a_skip_in_lists() throws {
        let body = try fixture("seed-000-invalid-species.json")
        guard case .failure(.invalid(let skipped)) = AnnouncementDecoder.decodeDetails(body) else {
            Issue.record("DINOSAUR must not decode")
            return
        }
        #expect(skipped.reason == .invalidSpecies)

        let item = try JSONSerialization.jsonObject(with: body)
        let outcome = try decodeList([item, itemJSON(["id": "ok"])])
        #expect(outcome.items.map(\.id) == ["ok"])
        #expect(outcome.skipped.map(\.reason) == [.invalidSpecies])
    }

    @Test func seed_000_missing_petName_is_valid_and_unnamed_per_spec() throws {
        // The seed rejects it; docs/upstream.md §2 overrides: the backend allows null names.
        let (item, _) = try AnnouncementDecoder.decodeDetails(try fixture("seed-000-missing-petname.json")).get()
        #expect(item.petName == nil)
        #expect(item.displayName == "Unnamed pet")
    }

    @Test func seed_000_invalid_date_format_is_an_error() throws {
        let result = AnnouncementDecoder.decodeDetails(try fixture("seed-000-invalid-date.json"))
        guard case .failure(.invalid(let skipped)) = result else {
            Issue.record("15-11-2024 must not decode")
            return
        }
        #expect(skipped.reason == .invalidLastSeenDate)
        #expect(skipped.detail == "lastSeenDate '15-11-2024'")
    }

    @Test func seed_000_photoUrl_is_optional_per_spec() throws {
        // The seed requires photoUrl; docs/upstream.md §2 makes it optional (details may have null).
        let (item, warnings) = try validItemWithWarnings(["photoUrl": NSNull()])
        #expect(item.photo == nil)
        #expect(warnings.isEmpty)
    }
}
