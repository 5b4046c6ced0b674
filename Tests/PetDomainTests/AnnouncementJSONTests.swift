import Foundation
import PetDomain
import Testing

/// Our JSON API output (docs/upstream.md §4): the current backend shape, readable by our own decoder.
@Suite struct AnnouncementJSONTests {
    static let backendKeys: Set<String> = [
        "id", "petName", "species", "breed", "sex", "age", "description", "microchipNumber",
        "locationLatitude", "locationLongitude", "lastSeenDate", "email", "phone", "photoUrl",
        "status", "reward", "createdAt", "updatedAt",
    ]

    func objects(_ data: Data) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["data"] as? [[String: Any]])
    }

    @Test func json_list_round_trips_through_decodeList_for_every_dialect() throws {
        for name in ["dialect-a-list.json", "dialect-c-list.json", "dialect-d-list.json", "seed-000-list.json"] {
            let original = try AnnouncementDecoder.decodeList(try fixture(name)).items
            let encoded = AnnouncementJSON.encodeList(original, origin: nil)
            let decoded = try AnnouncementDecoder.decodeList(encoded)
            #expect(decoded.skipped.isEmpty, "\(name)")
            #expect(decoded.warnings.isEmpty, "\(name)")
            #expect(decoded.items == original, "\(name)")
        }
    }

    @Test func json_details_round_trip_keeps_a_dialect_B_city() throws {
        let (original, _) = try AnnouncementDecoder.decodeDetails(try fixture("dialect-b-details.json")).get()
        let encoded = AnnouncementJSON.encodeDetails(original, origin: nil)
        let (decoded, warnings) = try AnnouncementDecoder.decodeDetails(encoded).get()
        #expect(decoded == original)
        #expect(warnings.isEmpty)
    }

    @Test func json_has_every_backend_key_with_explicit_null() throws {
        let (sparse, _) = try validItemWithWarnings([
            "petName": NSNull(), "breed": NSNull(), "sex": NSNull(), "age": NSNull(), "description": NSNull(),
            "microchipNumber": NSNull(), "email": NSNull(), "phone": NSNull(), "photoUrl": NSNull(), "reward": NSNull(),
        ])
        let object = try #require(try objects(AnnouncementJSON.encodeList([sparse], origin: nil)).first)
        #expect(Set(object.keys) == Self.backendKeys.union(["placeName"]))
        #expect(object["placeName"] is NSNull)
        for key in ["petName", "breed", "age", "description", "microchipNumber", "email", "phone", "photoUrl", "reward"] {
            #expect(object[key] is NSNull, "\(key) must be an explicit null")
        }
        let text = String(decoding: AnnouncementJSON.encodeDetails(sparse, origin: nil), as: UTF8.self)
        #expect(text.contains(#""petName":null"#))
        #expect(text.hasPrefix(#"{"id":"550e8400-e29b-41d4-a716-446655440000","petName":null,"species":"DOG""#))
    }

    @Test func json_uses_backend_values_and_formats() throws {
        let item = try validItem([
            "status": "Lost", "species": "rabbit", "sex": "female", "reward": "PLN 1,500.50",
            "locationLatitude": 17, "createdAt": "2024-11-20T11:30:00+01:00",
        ])
        let object = try #require(try objects(AnnouncementJSON.encodeList([item], origin: nil)).first)
        #expect(object["status"] as? String == "MISSING")
        #expect(object["species"] as? String == "RABBIT")
        #expect(object["sex"] as? String == "FEMALE")
        #expect(object["reward"] as? String == "1,500.50 PLN")
        #expect(object["lastSeenDate"] as? String == "2024-11-15")
        #expect(object["createdAt"] as? String == "2024-11-20T10:30:00.000Z")
        #expect(object["updatedAt"] as? String == "2024-12-01T14:24:13.000Z")
        #expect(object["photoUrl"] as? String == "/images/max.jpg")
        let text = String(decoding: AnnouncementJSON.encodeDetails(item, origin: nil), as: UTF8.self)
        #expect(text.contains(#""locationLatitude":17,"#), "whole coordinates print like the backend: 17, not 17.0")
    }

    @Test func json_city_place_has_null_coordinates_and_location_keys() throws {
        let (item, _) = try AnnouncementDecoder.decodeDetails(try fixture("dialect-b-details.json")).get()
        let text = String(decoding: AnnouncementJSON.encodeDetails(item, origin: nil), as: UTF8.self)
        #expect(text.contains(#""locationLatitude":null,"locationLongitude":null"#))
        #expect(text.contains(#""location":"Kamionka","locationRadius":5"#))
    }

    @Test func json_distance_only_when_an_origin_is_given() throws {
        let krakow = try coordinate(50.0647, 19.9450)
        let point = try validItem(["id": "p"])
        let city = try validItem(["id": "c", "locationLatitude": absent, "locationLongitude": absent, "location": "Kamionka"])
        let located = try objects(AnnouncementJSON.encodeList([point, city], origin: krakow))
        let distance = try #require(located[0]["distanceKm"] as? Double)
        #expect(distance == ((point.distanceKm(from: krakow) ?? 0) * 10).rounded() / 10)
        #expect(located[1]["distanceKm"] is NSNull)
        let unlocated = try objects(AnnouncementJSON.encodeList([point], origin: nil))
        #expect(unlocated[0]["distanceKm"] == nil)
    }

    @Test func json_text_is_escaped_but_passes_through_unchanged() throws {
        let text = "Łódź, Żółć <script>alert(1)</script> & \"quotes\" \\ back\nline\u{0001}\u{2028}end"
        let item = try validItem(["description": text, "petName": "Reksio 🐶"])
        let data = AnnouncementJSON.encodeDetails(item, origin: nil)
        let raw = String(decoding: data, as: UTF8.self)
        #expect(!raw.contains("<script>"), "angle brackets are escaped for HTML safety")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["description"] as? String == text)
        #expect(object["petName"] as? String == "Reksio 🐶")
    }

    @Test func json_contact_name_and_address_survive_from_dialect_D() throws {
        let items = try AnnouncementDecoder.decodeList(try fixture("dialect-d-list.json")).items
        let object = try #require(try objects(AnnouncementJSON.encodeList(items, origin: nil)).first)
        #expect(object["contactName"] as? String == "John Doe")
        #expect(object["location"] as? String == "Warsaw, Poland")
    }

    @Test func json_error_shape_with_and_without_field() throws {
        let withField = try #require(
            try JSONSerialization.jsonObject(
                with: AnnouncementJSON.encodeError(
                    code: "INVALID_PARAMETER",
                    message: "lat must be a number",
                    requestID: "req-1",
                    field: "lat"
                )
            ) as? [String: Any]
        )
        let error = try #require(withField["error"] as? [String: Any])
        #expect(error["code"] as? String == "INVALID_PARAMETER")
        #expect(error["message"] as? String == "lat must be a number")
        #expect(error["requestId"] as? String == "req-1")
        #expect(error["field"] as? String == "lat")
        let text = String(
            decoding: AnnouncementJSON.encodeError(code: "NOT_FOUND", message: "Not found", requestID: "req-2", field: nil),
            as: UTF8.self
        )
        #expect(text == #"{"error":{"code":"NOT_FOUND","message":"Not found","requestId":"req-2"}}"#)
    }

    @Test func json_photo_links_give_the_public_url_and_a_placeholder_instead_of_null() throws {
        let links = AnnouncementJSON.PhotoLinks(url: { "/proxied" + $0.urlString }, placeholder: "/static/none.png")
        let withPhoto = try validItem(["id": "a"])
        let without = try validItem(["id": "b", "photoUrl": "javascript:alert(1)"])
        let encoded = try objects(AnnouncementJSON.encodeList([withPhoto, without], origin: nil, photos: links))
        #expect(encoded.map { $0["photoUrl"] as? String } == ["/proxied/images/max.jpg", "/static/none.png"])
        let details = String(decoding: AnnouncementJSON.encodeDetails(without, origin: nil, photos: links), as: UTF8.self)
        #expect(details.contains(#""photoUrl":"/static/none.png""#))
    }

    @Test func json_empty_list_is_a_data_wrapper() {
        #expect(String(decoding: AnnouncementJSON.encodeList([], origin: nil), as: UTF8.self) == #"{"data":[]}"#)
    }
}
