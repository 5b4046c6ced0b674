import Foundation

@testable import PetDomain

/// `AnnouncementDecoder` on any body: every kept item obeys docs/upstream.md §2, and our own API
/// output of the kept items (`AnnouncementJSON`, dialect A) reads back to the same items.
enum AnnouncementsTarget {
    /// An origin, so `distanceKm` is written too.
    static let origin = Coordinate(latitude: 52.2297, longitude: 21.0122)

    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        if let outcome = try? AnnouncementDecoder.decodeList(data) {
            checkList(outcome, body: data)
            let written = AnnouncementJSON.encodeList(outcome.items, origin: origin)
            guard let again = try? AnnouncementDecoder.decodeList(written) else {
                fatalError("invariant broken: our list output does not decode: \(String(decoding: written.prefix(300), as: UTF8.self))")
            }
            expect(again.skipped.isEmpty, "our list output has skipped items: \(again.skipped)")
            expect(again.warnings.isEmpty, "our list output has warnings: \(again.warnings)")
            expect(again.items == outcome.items, "our list output reads back differently: \(difference(outcome.items, again.items))")
        }
        if case .success(let (item, _)) = AnnouncementDecoder.decodeDetails(data) {
            checkItem(item)
            let written = AnnouncementJSON.encodeDetails(item, origin: nil)
            guard case .success(let (again, warnings)) = AnnouncementDecoder.decodeDetails(written) else {
                fatalError("invariant broken: our details output does not decode: \(String(decoding: written.prefix(300), as: UTF8.self))")
            }
            expect(warnings.isEmpty, "our details output has warnings: \(warnings)")
            expect(again == item, "our details output reads back differently: \(difference([item], [again]))")
        }
    }

    /// Kept plus skipped items account for every element, ids are unique.
    static func checkList(_ outcome: ListOutcome, body: Data) {
        var ids = Set<String>()
        for item in outcome.items {
            checkItem(item)
            expect(ids.insert(item.id).inserted, "duplicate id kept: \(item.id)")
        }
        if let document = JSONValue.parse(body) {
            let elements: Int
            switch document {
            case .array(let list): elements = list.count
            default:
                let wrapped = AnnouncementDecoder.listWrapperKeys.lazy.compactMap { key -> Int? in
                    if case .array(let list) = document[key] { return list.count }
                    return nil
                }.first
                elements = wrapped ?? -1
            }
            expect(
                outcome.items.count + outcome.skipped.count == elements,
                "\(outcome.items.count) kept + \(outcome.skipped.count) skipped != \(elements) elements"
            )
        }
    }

    /// The rules of docs/upstream.md §2 that hold for every kept item.
    static func checkItem(_ item: Announcement) {
        expect(!item.id.isEmpty && sameBytes(TextNormalization.trimmed(item.id), item.id), "id not trimmed or empty: '\(item.id)'")
        for (name, value) in [
            ("petName", item.petName), ("breed", item.breed), ("description", item.description),
            ("microchipNumber", item.microchipNumber), ("email", item.email), ("phone", item.phone),
            ("contactName", item.contactName), ("place", item.place.name), ("rewardNote", item.rewardNote),
        ] {
            if let value {
                expect(!value.isEmpty && sameBytes(TextNormalization.trimmed(value), value), "\(name) not trimmed or empty: '\(value)'")
            }
        }
        expect(item.reward == nil || item.rewardNote == nil, "a reward both an amount and a note")
        expect((item.age ?? 0) >= 0, "negative age")
        expect(item.updatedAt >= item.createdAt, "updatedAt before createdAt")
        if let reward = item.reward { expect(reward.amount > 0, "reward not positive: \(reward.amount)") }
        if let radius = item.place.radiusKm { expect(radius > 0, "radius not positive: \(radius)") }
        if let coordinate = item.place.coordinate {
            expect(Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude) != nil, "coordinate out of range")
        }
    }

    /// The first differing pair, for the crash message.
    static func difference(_ before: [Announcement], _ after: [Announcement]) -> String {
        guard before.count == after.count else { return "\(before.count) items became \(after.count)" }
        for (left, right) in zip(before, after) where left != right {
            return "\(left)\n  became\n\(right)"
        }
        return "no difference found"
    }
}
