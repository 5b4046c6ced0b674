import Foundation
import PetDomain
import Testing

/// docs/upstream.md §2 row place: flat, `latitude/longitude` or nested coordinates, or a dialect B city.
@Suite struct PlaceRuleTests {
    @Test func place_reads_dialect_A_flat_coordinates() throws {
        let item = try validItem(["locationLatitude": 52.2297, "locationLongitude": 21.0122])
        #expect(item.place == .coordinates(try coordinate(52.2297, 21.0122), address: nil))
    }

    @Test func place_reads_dialect_C_latitude_longitude() throws {
        let item = try validItem([
            "locationLatitude": absent, "locationLongitude": absent,
            "latitude": -33.8688, "longitude": 151.2093,
        ])
        #expect(item.place.coordinate == (try coordinate(-33.8688, 151.2093)))
    }

    @Test func place_reads_dialect_D_nested_location_with_address() throws {
        let item = try validItem([
            "locationLatitude": absent, "locationLongitude": absent,
            "location": ["latitude": 50.0614, "longitude": 19.9366, "address": " Rynek Główny, Kraków "],
        ])
        #expect(item.place == .coordinates(try coordinate(50.0614, 19.9366), address: "Rynek Główny, Kraków"))
    }

    @Test func place_accepts_whole_number_and_numeric_string_coordinates() throws {
        #expect(
            try validItem(["locationLatitude": 17, "locationLongitude": -17]).place.coordinate
                == (try coordinate(17, -17))
        )
        #expect(
            try validItem(["locationLatitude": "52.1", "locationLongitude": " 21 "]).place.coordinate
                == (try coordinate(52.1, 21))
        )
    }

    @Test func place_accepts_the_range_boundaries() throws {
        #expect(try validItem(["locationLatitude": -90, "locationLongitude": 180]).place.coordinate != nil)
        #expect(try validItem(["locationLatitude": 90, "locationLongitude": -180]).place.coordinate != nil)
    }

    @Test func place_out_of_range_coordinates_are_invalid() throws {
        #expect(try skipReason(["locationLatitude": 90.0001]) == .invalidPlace)
        #expect(try skipReason(["locationLatitude": -91]) == .invalidPlace)
        #expect(try skipReason(["locationLongitude": 180.5]) == .invalidPlace)
        #expect(try skipReason(["locationLongitude": -181]) == .invalidPlace)
    }

    @Test func place_half_or_non_numeric_coordinates_are_invalid() throws {
        #expect(try skipReason(["locationLongitude": NSNull()]) == .invalidPlace)
        #expect(try skipReason(["locationLatitude": "north"]) == .invalidPlace)
        #expect(try skipReason(["locationLatitude": "nan"]) == .invalidPlace)
        #expect(try skipReason(["locationLatitude": true]) == .invalidPlace)
    }

    @Test func place_missing_entirely_is_invalid() throws {
        #expect(try skipReason(["locationLatitude": absent, "locationLongitude": absent]) == .invalidPlace)
        #expect(
            try skipReason([
                "locationLatitude": NSNull(), "locationLongitude": NSNull(),
                "location": ["address": "Somewhere"],
            ]) == .invalidPlace
        )
    }

    @Test func place_dialect_B_city_with_radius_when_no_coordinates() throws {
        let item = try validItem([
            "locationLatitude": absent, "locationLongitude": absent,
            "location": "Kamionka", "locationRadius": 5,
        ])
        #expect(item.place == .city(name: "Kamionka", radiusKm: 5))
        #expect(item.place.coordinate == nil)
        #expect(Format.place(item.place) == "Kamionka ±5 km")
    }

    @Test func place_dialect_B_city_without_radius() throws {
        let item = try validItem(["locationLatitude": NSNull(), "locationLongitude": NSNull(), "location": "Wrocław"])
        #expect(item.place == .city(name: "Wrocław", radiusKm: nil))
    }

    @Test func place_dialect_B_bad_radius_is_dropped_with_a_warning() throws {
        let (item, warnings) = try validItemWithWarnings([
            "locationLatitude": absent, "locationLongitude": absent,
            "location": "Kamionka", "locationRadius": -3,
        ])
        #expect(item.place == .city(name: "Kamionka", radiusKm: nil))
        #expect(warnings.map(\.field) == ["locationRadius"])
    }

    @Test func place_coordinates_win_over_a_city_name_which_becomes_the_address() throws {
        let item = try validItem(["location": "Warszawa", "locationRadius": 5])
        #expect(item.place == .coordinates(try coordinate(52.2297, 21.0122), address: "Warszawa"))
    }

    @Test func place_invalid_coordinates_are_not_rescued_by_a_city_name() throws {
        #expect(try skipReason(["locationLatitude": 100, "location": "Warszawa"]) == .invalidPlace)
    }

    @Test func distance_from_origin_uses_haversine_and_is_nil_for_city_places() throws {
        let warsaw = try coordinate(52.2297, 21.0122)
        let krakow = try coordinate(50.0647, 19.9450)
        let item = try validItem([:])
        let distance = try #require(item.distanceKm(from: krakow))
        #expect(abs(distance - 252) < 2)
        #expect(item.distanceKm(from: warsaw) == 0)
        let city = try validItem(["locationLatitude": absent, "locationLongitude": absent, "location": "Kamionka"])
        #expect(city.distanceKm(from: warsaw) == nil)
    }

    @Test func coordinate_decoding_rejects_out_of_range_values() throws {
        let valid = try JSONDecoder().decode(Coordinate.self, from: Data(#"{"latitude":52.1,"longitude":21}"#.utf8))
        #expect(valid == (try coordinate(52.1, 21)))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Coordinate.self, from: Data(#"{"latitude":91,"longitude":21}"#.utf8))
        }
        let encoded = try JSONEncoder().encode(valid)
        #expect(try JSONDecoder().decode(Coordinate.self, from: encoded) == valid)
    }
}
