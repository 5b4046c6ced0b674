import Foundation
import PetDomain
import Testing

/// docs/upstream.md §3 presentation rules.
@Suite struct FormatTests {
    @Test func status_badge_text_is_upper_case() {
        #expect(AnnouncementStatus.missing.label == "MISSING")
        #expect(AnnouncementStatus.found.label == "FOUND")
        #expect(AnnouncementStatus.closed.label == "CLOSED")
    }

    @Test(arguments: [
        (2025, 11, 18, "Nov 18, 2025"), (2025, 11, 5, "Nov 05, 2025"), (2024, 1, 1, "Jan 01, 2024"),
        (2024, 2, 29, "Feb 29, 2024"), (1999, 12, 31, "Dec 31, 1999"),
    ])
    func date_is_MMM_dd_yyyy_in_English(year: Int, month: Int, dayOfMonth: Int, expected: String) throws {
        #expect(Format.date(try day(year, month, dayOfMonth)) == expected)
    }

    @Test func sex_has_symbol_and_word() {
        #expect(Format.sex(.male) == "♂ Male")
        #expect(Format.sex(.female) == "♀ Female")
        #expect(Format.sex(.unknown) == "? Unknown")
    }

    @Test(arguments: [
        ("123456789012345", "123-456-789-012-345"), ("000000000000", "000-000-000-000"),
        ("1234567890", "123-456-789-0"), ("12", "12"), (" 123456 ", "123-456"),
        ("ABC-123", "ABC-123"), ("123 456 789", "123 456 789"), ("", "—"),
    ])
    func microchip_groups_digits_by_three_else_shows_as_given(raw: String, expected: String) {
        #expect(Format.microchip(raw) == expected)
    }

    @Test(arguments: [(1, "1 year"), (5, "5 years"), (0, "under 1 year"), (2, "2 years")])
    func age_is_years_in_words(years: Int, expected: String) {
        #expect(Format.age(years) == expected)
    }

    @Test func age_missing_or_negative_is_a_dash() {
        #expect(Format.age(nil) == "—")
        #expect(Format.age(-3) == "—")
    }

    @Test(arguments: [
        (2.345, "2.3 km away"), (0.4, "0.4 km away"), (0.04, "0.0 km away"), (2.25, "2.3 km away"),
        (12.96, "13.0 km away"), (250, "250.0 km away"),
    ])
    func distance_has_one_decimal(km: Double, expected: String) {
        #expect(Format.distance(km: km) == expected)
    }

    @Test func distance_that_is_not_a_real_number_is_a_dash() {
        #expect(Format.distance(km: .nan) == "—")
        #expect(Format.distance(km: -1) == "—")
    }

    @Test func distance_between_real_cities_uses_haversine() throws {
        let warsaw = try coordinate(52.2297, 21.0122)
        let wroclaw = try coordinate(51.1079, 17.0385)
        #expect(Format.distance(km: warsaw.distanceKm(to: wroclaw)) == "301.0 km away")
    }

    @Test func radius_is_plus_minus_km() {
        #expect(Format.radius(km: 5) == "±5 km")
        #expect(Format.radius(km: 12) == "±12 km")
    }

    @Test(arguments: [
        (52.2297, 21.0122, "52.2297° N, 21.0122° E"), (-33.86882, -151.20929, "33.8688° S, 151.2093° W"),
        (0, 0, "0.0000° N, 0.0000° E"), (-0.00001, -0.00004, "0.0000° N, 0.0000° E"),
        (17, -17, "17.0000° N, 17.0000° W"),
    ])
    func coordinates_have_four_decimals_and_hemispheres(latitude: Double, longitude: Double, expected: String) throws {
        #expect(Format.coordinate(try coordinate(latitude, longitude)) == expected)
    }

    @Test func missing_optional_value_is_a_dash() {
        #expect(Format.missingValue == "—")
        #expect(Format.optional(nil) == "—")
        #expect(Format.optional("  ") == "—")
        #expect(Format.optional(" York ") == "York")
    }

    @Test func reward_badge_reads_reward_and_amount() throws {
        let reward = try #require(Reward(amount: 500, currency: "PLN"))
        #expect(Format.rewardBadge(reward) == "Reward 500 PLN")
    }

    @Test func place_shows_address_else_coordinates_else_city_with_radius() throws {
        let point = try coordinate(52.2297, 21.0122)
        #expect(Format.place(.coordinates(point, address: "Warsaw, Poland")) == "Warsaw, Poland")
        #expect(Format.place(.coordinates(point, address: nil)) == "52.2297° N, 21.0122° E")
        #expect(Format.place(.city(name: "Warszawa", radiusKm: 5)) == "Warszawa ±5 km")
        #expect(Format.place(.city(name: "Warszawa", radiusKm: nil)) == "Warszawa")
    }

    @Test func map_link_points_OpenStreetMap_at_the_coordinates() throws {
        #expect(
            Format.mapLink(try coordinate(52.2297, 21.0122))
                == "https://www.openstreetmap.org/?mlat=52.22970&mlon=21.01220#map=16/52.22970/21.01220"
        )
        #expect(
            Format.mapLink(try coordinate(-33.868825, -151.2093))
                == "https://www.openstreetmap.org/?mlat=-33.86883&mlon=-151.20930#map=16/-33.86883/-151.20930"
        )
    }

    @Test func no_photo_is_represented_as_nil_for_the_placeholder() throws {
        // The page shows "Image not available" exactly when photo is nil (docs/upstream.md §3).
        #expect(try validItem(["photoUrl": "data:image/png;base64,AAAA"]).photo == nil)
    }
}
