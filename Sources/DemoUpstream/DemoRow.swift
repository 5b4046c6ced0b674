import PetDomain

/// One announcement row as the backend's SQLite table holds it. Fields are raw text and numbers,
/// not domain types, because the data set deliberately contains rows the domain layer must reject
/// (docs/upstream.md §5): an unknown species or an impossible date has to survive until it is served.
struct DemoRow: Sendable {
    var id: String
    var petName: String?
    var species: String
    var breed: String?
    var sex: String
    var age: Int?
    var description: String?
    var microchipNumber: String?
    var latitude: Double
    var longitude: Double
    var lastSeenDate: String
    var email: String?
    var phone: String?
    var photoUrl: String?
    var status: String
    var reward: String?
    var createdAt: String
    var updatedAt: String

    /// The row's place, or nil when its coordinates are out of range (such a row is in no radius).
    var coordinate: Coordinate? {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The row serialized like the Node backend: all 18 keys, in its order, nulls explicit.
    var json: String {
        JSONText.object([
            ("id", .string(id)),
            ("petName", .string(petName)),
            ("species", .string(species)),
            ("breed", .string(breed)),
            ("sex", .string(sex)),
            ("age", .integer(age)),
            ("description", .string(description)),
            ("microchipNumber", .string(microchipNumber)),
            ("locationLatitude", .number(latitude)),
            ("locationLongitude", .number(longitude)),
            ("lastSeenDate", .string(lastSeenDate)),
            ("email", .string(email)),
            ("phone", .string(phone)),
            ("photoUrl", .string(photoUrl)),
            ("status", .string(status)),
            ("reward", .string(reward)),
            ("createdAt", .string(createdAt)),
            ("updatedAt", .string(updatedAt)),
        ])
    }
}
