import Foundation

extension AnnouncementJSON {
    /// `{"data":[…]}` of a report's matches, best first (docs/matching.md "API"): each item is the
    /// announcement as the details endpoint writes it, with `distanceKm` from the report's place,
    /// and `score` and `reasons` (`{"code": "DISTANCE_KM", "value": 2.1}`) added. `items[i]` is the
    /// announcement of `matches[i]`.
    public static func encodeMatches(
        _ matches: [PetMatch],
        items: [Announcement],
        origin: Coordinate?,
        photos: PhotoLinks = .asReceived
    ) -> Data {
        var body = Data("{\"data\":[".utf8)
        for (offset, (match, item)) in zip(matches, items).enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            var object = encodeDetails(item, origin: origin, photos: photos)
            // The details object's closing brace, replaced by the match's own keys.
            object.removeLast()
            var writer = JSONWriter()
            writer.key("score")
            writer.raw(Format.oneDecimal(match.score))
            writer.key("reasons")
            writer.raw("[")
            for (index, reason) in match.reasons.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw("{")
                writer.key("code", first: true)
                writer.string(reason.code)
                writer.key("value")
                switch reason {
                case .sameMicrochip, .agesAgree: writer.null()
                case .distanceKm(let km): writer.raw(Format.oneDecimal(km))
                case .daysApart(let days): writer.integer(days)
                case .sameBreed(let breed): writer.string(breed)
                case .sharedMarkings(let markings):
                    writer.raw("[")
                    for (position, marking) in markings.enumerated() {
                        if position > 0 { writer.raw(",") }
                        writer.string(marking.rawValue)
                    }
                    writer.raw("]")
                }
                writer.raw("}")
            }
            writer.raw("]}")
            object.append(contentsOf: Data(writer.text.utf8))
            body.append(object)
        }
        body.append(contentsOf: Array("]}".utf8))
        return body
    }
}
