import Foundation
import PetDomain
import TestSupport
import Testing

@testable import WebApp

/// docs/place-names.md: the nearest place on cards, details, map places, the JSON API and GeoJSON.
@Suite("Place names")
struct PlaceNamePageTests {
    /// Krzyki (Wrocław), 4 km north of Burzenin, and the mid-Atlantic.
    static let json = """
        {"data":[
        {"id":"in-krzyki","petName":"Kora","species":"DOG","sex":"FEMALE","locationLatitude":51.0725,"locationLongitude":16.996,
         "lastSeenDate":"2025-11-01","photoUrl":"/images/a.jpg","status":"MISSING","createdAt":"2025-11-03T10:00:00.000Z",
         "updatedAt":"2025-11-03T10:00:00.000Z"},
        {"id":"near-burzenin","petName":"Bury","species":"CAT","sex":"MALE","locationLatitude":51.4968,"locationLongitude":18.8323,
         "lastSeenDate":"2025-11-01","photoUrl":"/images/b.jpg","status":"FOUND","createdAt":"2025-11-02T10:00:00.000Z",
         "updatedAt":"2025-11-02T10:00:00.000Z"},
        {"id":"at-sea","petName":"Nemo","species":"OTHER","sex":"UNKNOWN","locationLatitude":40,"locationLongitude":-40,
         "lastSeenDate":"2025-11-01","photoUrl":"/images/c.jpg","status":"MISSING","createdAt":"2025-11-01T10:00:00.000Z",
         "updatedAt":"2025-11-01T10:00:00.000Z"}
        ]}
        """

    static func names(_ html: String) -> [String] { PageHTML.texts(ofTestID: "place-name", in: html) }

    @Test func cards_and_map_places_show_the_place_name_in_the_page_language() async throws {
        try await withApp(listJSON: Self.json) { app in
            let english = try await app.get("/pets?lang=en").text
            #expect(Self.names(english) == ["Krzyki, Wrocław", "about 4 km from Burzenin"])
            let polish = try await app.get("/pets?lang=pl").text
            #expect(Self.names(polish) == ["Krzyki, Wrocław", "ok. 4 km od miejscowości Burzenin"])
            // Far from any place: the coordinates, as before.
            #expect(polish.contains("40,0000° N, 40,0000° W"))
            let map = try await app.get("/map").text
            #expect(Self.names(map) == ["Krzyki, Wrocław", "about 4 km from Burzenin"])
            #expect(PageHTML.testIDCount("places-credit", in: english) == 1)
            #expect(english.contains(#"href="https://creativecommons.org/licenses/by/4.0/""#))
        }
    }

    @Test func details_have_a_place_row_and_keep_the_linked_coordinates() async throws {
        try await withApp(listJSON: Self.json) { app in
            let html = try await app.get("/pets/near-burzenin").text
            #expect(DetailsPageTests.row("Place", in: html) == "about 4 km from Burzenin")
            #expect(Self.names(html) == ["about 4 km from Burzenin"])
            #expect(DetailsPageTests.row("Coordinates", in: html) == "51.4968° N, 18.8323° E")
            #expect(html.contains("https://www.openstreetmap.org/?mlat=51.49680"))
            let sea = try await app.get("/pets/at-sea").text
            #expect(PageHTML.testIDCount("place-name", in: sea) == 0)
        }
    }

    @Test func the_api_and_geojson_carry_place_name_or_null() async throws {
        try await withApp(listJSON: Self.json) { app in
            let list = try await app.get("/api/v1/announcements")
            let items = try #require(try JSONSerialization.jsonObject(with: list.body) as? [String: Any])["data"] as? [[String: Any]]
            let byID = Dictionary(uniqueKeysWithValues: try #require(items).map { ($0["id"] as? String ?? "", $0["placeName"]) })
            #expect(byID["in-krzyki"] as? String == "Krzyki, Wrocław")
            #expect(byID["near-burzenin"] as? String == "about 4 km from Burzenin")
            #expect(byID["at-sea"].map { $0 is NSNull } == true)

            let geo = try await app.get("/api/v1/announcements.geojson")
            let features = try #require(try JSONSerialization.jsonObject(with: geo.body) as? [String: Any])["features"] as? [[String: Any]]
            let properties = try #require(features).compactMap { $0["properties"] as? [String: Any] }
            let geoByID = Dictionary(uniqueKeysWithValues: properties.map { ($0["id"] as? String ?? "", $0["placeName"]) })
            #expect(geoByID["in-krzyki"] as? String == "Krzyki, Wrocław")
            #expect(geoByID["at-sea"].map { $0 is NSNull } == true)
        }
    }

    @Test func place_names_are_escaped_like_other_text() throws {
        // The names come from a data file, not the upstream, but pass the same escaping (no raw output path).
        let place = NearestPlace(name: "<b>Ville</b> & \"Co\"", area: nil, distanceKm: 0.5)
        #expect(Format.placeName(place) == "<b>Ville</b> & \"Co\"")
        let polish = try LocalizedFormatTests.polish()
        #expect(polish.placeName(NearestPlace(name: "Burzenin", area: nil, distanceKm: 3.6)) == "ok. 4 km od miejscowości Burzenin")
        #expect(
            try LocalizedFormatTests.english().placeName(NearestPlace(name: "Burzenin", area: nil, distanceKm: 3.6))
                == Format.placeName(NearestPlace(name: "Burzenin", area: nil, distanceKm: 3.6))
        )
    }
}
