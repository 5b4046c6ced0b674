import Foundation
import HTTPTypes
import TestSupport
import Testing

/// The PetSpot iOS app's data-layer types, with exactly the optionality they declare (seed 000's
/// `AnnouncementDTO` and `PetDetailsDTO`; status, species and sex as the app's enums).
/// One item that does not fit fails the whole decode, as it does in the app.
enum MobileApp {
    /// The app's statuses (CLOSED is what we send for closed reports, docs/upstream.md §4); the cases
    /// are the wire values, in the app's capitals.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum Status: String, Decodable { case MISSING, FOUND, CLOSED }
    /// The app's species.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum Species: String, Decodable { case DOG, CAT, BIRD, RABBIT, OTHER }
    /// The app's sexes.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum Sex: String, Decodable { case MALE, FEMALE, UNKNOWN }

    /// `{"data":[…]}` of `GET /api/v1/announcements`.
    struct ListResponse: Decodable {
        let data: [ListItem]
    }

    /// The app's list item: `photoUrl` required.
    struct ListItem: Decodable {
        let id: String
        let petName: String
        let species: Species
        let status: Status
        let photoUrl: String
        let lastSeenDate: String
        let locationLatitude: Double
        let locationLongitude: Double
        let breed: String?
        let sex: Sex?
        let age: Int?
        let description: String
        let phone: String
        let email: String?
    }

    /// The app's details: `photoUrl` required here too.
    struct Details: Decodable {
        let id: String
        let petName: String
        let species: Species
        let status: Status
        let photoUrl: String
        let lastSeenDate: String
        let locationLatitude: Double
        let locationLongitude: Double
        let breed: String?
        let sex: Sex?
        let age: Int?
        let microchipNumber: String?
        let email: String?
        let phone: String
        let reward: String?
        let description: String
        let createdAt: String
        let updatedAt: String
    }
}

extension ServerIntegration {
    /// Our `/api/v1` as a drop-in for the mobile apps (docs/upstream.md §4): their types decode every answer,
    /// and every `photoUrl` loads.
    @Suite("Mobile app contract")
    struct MobileContractTests {
        static let placeholder = "/static/img/photo-placeholder.png"

        /// Upstream photo (nil: an explicit null) → the `photoUrl` we must give.
        static let photos: [(id: String, upstream: String?, expected: String)] = [
            ("c-plain", "/images/c-plain.jpg", "/images/c-plain.jpg"),
            ("c-space", "/images/my%20cat.png", "/images/my%20cat.png"),
            ("c-escape", "/images/rabat%2541.png", "/images/rabat%2541.png"),
            ("c-absolute", "https://cdn.example.org/p/abs.jpg", "https://cdn.example.org/p/abs.jpg"),
            ("c-javascript", "javascript:alert(1)", placeholder),
            ("c-data", "data:image/png;base64,AAAA", placeholder),
            ("c-outside", "/uploads/x.jpg", placeholder),
            ("c-null", nil, placeholder),
        ]

        /// What the upstream's static server holds, by decoded path (its single decoding of the URL path).
        static let upstreamFiles = ["/images/c-plain.jpg", "/images/my cat.png", "/images/rabat%41.png"]

        static func listJSON() -> String {
            let statuses = ["MISSING", "FOUND", "CLOSED"]
            let sexes = ["MALE", "FEMALE", "UNKNOWN"]
            return PageJSON.list(
                photos.enumerated().map { offset, photo in
                    PageJSON.item(
                        photo.id,
                        name: "Pet \(offset)",
                        overrides: [
                            "photoUrl": photo.upstream ?? NSNull(), "description": "Seen near the park.", "phone": "555-PETS",
                            "status": statuses[offset % 3], "sex": sexes[offset % 3],
                            "createdAt": "2025-11-1\(offset)T10:00:00.000Z", "updatedAt": "2025-11-1\(offset)T10:00:00.000Z",
                        ]
                    )
                }
            )
        }

        private func withContractApp(_ body: (TestApp) async throws -> Void) async throws {
            try await withApp(listJSON: Self.listJSON()) { app in
                for path in Self.upstreamFiles {
                    app.stub.setImage(path: path, bytes: try photoFixture("upright.png"), contentType: "image/png")
                }
                try await body(app)
            }
        }

        @Test(arguments: [
            "/api/v1/announcements", "/api/v1/announcements?lat=52.2297&lng=21.0122",
            "/api/v1/announcements?lat=52.2297&lng=21.0122&range=20038",
        ])
        func the_list_decodes_into_the_app_types_with_a_usable_photo_for_every_item(path: String) async throws {
            try await withContractApp { app in
                let response = try await app.get(path)

                #expect(response.status == 200)
                let list = try JSONDecoder().decode(MobileApp.ListResponse.self, from: response.body)
                let given = Dictionary(uniqueKeysWithValues: list.data.map { ($0.id, $0.photoUrl) })
                let expected = Dictionary(uniqueKeysWithValues: Self.photos.map { ($0.id, $0.expected) })
                #expect(given == expected)
                #expect(!response.text.contains(#""photoUrl":null"#))
            }
        }

        @Test func details_decode_into_the_app_type_from_the_snapshot_and_from_the_upstream() async throws {
            try await withContractApp { app in
                let late = PageJSON.item(
                    "c-late",
                    name: "Late",
                    overrides: [
                        "photoUrl": NSNull(), "description": "Only on the details endpoint.", "phone": "555-0100",
                    ]
                )
                app.stub.setDetails(id: "c-late", json: PageJSON.text(late))
                // Loads the snapshot: the listed ids are answered from it, c-late from the details endpoint.
                #expect(try await app.get("/api/v1/announcements").status == 200)

                for photo in Self.photos {
                    let response = try await app.get("/api/v1/announcements/\(photo.id)")
                    #expect(response.status == 200)
                    let details = try JSONDecoder().decode(MobileApp.Details.self, from: response.body)
                    #expect(details.photoUrl == photo.expected, "\(photo.id)")
                }
                let response = try await app.get("/api/v1/announcements/c-late")
                #expect(response.status == 200)
                #expect(try JSONDecoder().decode(MobileApp.Details.self, from: response.body).photoUrl == Self.placeholder)
            }
        }

        @Test func every_relative_photo_url_loads_through_us_as_the_file_the_upstream_named() async throws {
            try await withContractApp { app in
                let list = try JSONDecoder().decode(MobileApp.ListResponse.self, from: try await app.get("/api/v1/announcements").body)

                for url in Set(list.data.map(\.photoUrl)) where url.hasPrefix("/") {
                    let image = try await app.get(url)
                    #expect(image.status == 200, "\(url)")
                    #expect(image.header("Content-Type")?.hasPrefix("image/") == true, "\(url)")
                }
                // Each upstream file was asked for by the path whose single decoding is its name.
                for path in Self.upstreamFiles {
                    #expect(app.stub.requestCount(path: path) == 1, "\(path)")
                }
            }
        }

        @Test func the_placeholder_is_a_png_the_apps_can_draw() async throws {
            try await withApp { app in
                let response = try await app.get(Self.placeholder)

                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "image/png")
                #expect(Array(response.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            }
        }

        @Test func pages_keep_their_own_placeholder_for_an_unusable_photo() async throws {
            try await withContractApp { app in
                let html = try await app.get("/pets/c-javascript").text

                #expect(html.contains("Image not available"))
                #expect(!html.contains(Self.placeholder))
            }
        }

        @Test func pages_link_a_percent_encoded_photo_once_encoded() async throws {
            try await withContractApp { app in
                let html = try await app.get("/pets").text

                #expect(html.contains(#"src="/images/my%20cat.png?w=640""#))
                #expect(html.contains(#"src="/images/rabat%2541.png?w=640""#))
                #expect(!html.contains("%2520") && !html.contains("%252541"))
            }
        }
    }
}
