import Foundation

// The generated upstream bodies of the benchmark (also compiled alone by scripts/bench/place-names.sh).

/// A deterministic dialect-A body: the same bytes on every run, so figures are comparable.
func makeDialectABody(count: Int) -> Data {
    var generator = SplitMix64(seed: 42)
    let species = ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"]
    let statuses = ["MISSING", "FOUND"]
    let sexes = ["MALE", "FEMALE", "UNKNOWN"]
    var items: [String] = []
    items.reserveCapacity(count)
    for index in 0..<count {
        let latitude = 49.0 + Double(generator.next() % 40_000) / 10_000
        let longitude = 16.0 + Double(generator.next() % 70_000) / 10_000
        let day = 1 + Int(generator.next() % 28)
        let second = Int(generator.next() % 86_400)
        let created = String(format: "2025-11-%02dT%02d:%02d:%02d.000Z", day, second / 3600, second / 60 % 60, second % 60)
        let updated = String(format: "2025-12-%02d %02d:%02d:%02d", day, second / 3600, second / 60 % 60, second % 60)
        let id = String(format: "%08x-e29b-41d4-a716-%012x", index, generator.next() % 0xFFFF_FFFF_FFFF)
        let reward = index % 4 == 0 ? "\"\(100 + index % 900) PLN\"" : "null"
        items.append(
            """
            {"id":"\(id)","petName":"Pet \(index) Łódź","species":"\(species[index % 5])",\
            "breed":"Mixed","sex":"\(sexes[index % 3])","age":\(index % 15),\
            "description":"Friendly animal number \(index), last seen near the park. Responds to its name.",\
            "microchipNumber":"\(100_000_000_000_000 + index)","locationLatitude":\(latitude),\
            "locationLongitude":\(longitude),"lastSeenDate":"2025-11-\(String(format: "%02d", day))",\
            "email":"owner\(index)@example.com","phone":"+48 123 456 \(String(format: "%03d", index % 1000))",\
            "photoUrl":"/images/pet-\(index).jpg","status":"\(statuses[index % 2])","reward":\(reward),\
            "createdAt":"\(created)","updatedAt":"\(updated)"}
            """
        )
    }
    return Data(("{\"data\":[" + items.joined(separator: ",") + "]}").utf8)
}

/// A small deterministic pseudo-random generator (SplitMix64).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
