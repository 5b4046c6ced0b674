import Foundation
import PetDomain
import Testing

/// Reads `Fixtures/<name>` from the test bundle.
func fixture(_ name: String) throws -> Data {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
        "missing fixture \(name)"
    )
    return try Data(contentsOf: url)
}

/// Marks a key to be left out of `itemJSON` (as opposed to `NSNull()`, an explicit null).
let absent = Absent()
struct Absent {}

/// A valid dialect-A item (the backend's 18 keys), with `changes` applied; `absent` removes a key.
func itemJSON(_ changes: [String: Any] = [:]) -> [String: Any] {
    var item: [String: Any] = [
        "id": "550e8400-e29b-41d4-a716-446655440000", "petName": "Max", "species": "DOG",
        "breed": "Golden Retriever", "sex": "MALE", "age": 5,
        "description": "Friendly golden retriever, responds to Max", "microchipNumber": "123456789012345",
        "locationLatitude": 52.2297, "locationLongitude": 21.0122, "lastSeenDate": "2024-11-15",
        "email": "owner@example.com", "phone": "+48123456789", "photoUrl": "/images/max.jpg",
        "status": "MISSING", "reward": "500 PLN",
        "createdAt": "2024-11-20T10:30:00.000Z", "updatedAt": "2024-12-01 14:24:13",
    ]
    for (key, value) in changes {
        if value is Absent { item[key] = nil } else { item[key] = value }
    }
    return item
}

/// Serializes a JSON-compatible value.
func jsonData(_ value: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
}

/// Decodes one item through the details path: the announcement and its warnings, or the failure.
func decodeItem(_ changes: [String: Any] = [:]) throws -> Result<(Announcement, [FieldWarning]), DetailsFailure> {
    AnnouncementDecoder.decodeDetails(try jsonData(itemJSON(changes)))
}

/// The announcement for a valid item; records an issue and throws if the item was rejected.
func validItem(_ changes: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> Announcement {
    try validItemWithWarnings(changes, sourceLocation: sourceLocation).0
}

/// The announcement and warnings for a valid item.
func validItemWithWarnings(
    _ changes: [String: Any] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> (Announcement, [FieldWarning]) {
    switch try decodeItem(changes) {
    case .success(let result):
        return result
    case .failure(let failure):
        Issue.record("expected a valid item, got \(failure.message)", sourceLocation: sourceLocation)
        throw failure
    }
}

/// The skip reason for an invalid item, or nil when it decoded.
func skipReason(_ changes: [String: Any]) throws -> SkipReason? {
    if case .failure(.invalid(let skipped)) = try decodeItem(changes) { return skipped.reason }
    return nil
}

/// Decodes a list body of the given items (wrapped in `{"data":…}`).
func decodeList(_ items: [Any]) throws -> ListOutcome {
    try AnnouncementDecoder.decodeList(try jsonData(["data": items]))
}

/// A UTC instant from ISO components, built without the code under test.
func utc(
    _ year: Int,
    _ month: Int,
    _ day: Int,
    _ hour: Int = 0,
    _ minute: Int = 0,
    _ second: Int = 0,
    milliseconds: Int = 0
) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let base = calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    return base.addingTimeInterval(Double(milliseconds) / 1000)
}

/// A coordinate known to be valid in tests.
func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
    try #require(Coordinate(latitude: latitude, longitude: longitude))
}

/// A calendar date known to be valid in tests.
func day(_ year: Int, _ month: Int, _ day: Int) throws -> CalendarDate {
    try #require(CalendarDate(year: year, month: month, day: day))
}

/// A minimal announcement for query and output tests.
func announcement(
    _ id: String,
    status: AnnouncementStatus = .missing,
    species: Species = .dog,
    place: Place,
    createdAt: Date,
    lastSeen: CalendarDate
) -> Announcement {
    Announcement(
        id: id,
        petName: "Pet \(id)",
        species: species,
        status: status,
        place: place,
        lastSeenDate: lastSeen,
        createdAt: createdAt,
        updatedAt: createdAt
    )
}
