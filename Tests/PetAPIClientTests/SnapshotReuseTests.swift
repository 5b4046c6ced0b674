import Foundation
import PetAPIClient
import PetDomain
import Testing

/// A new list reuses what the held snapshot decoded of items whose bytes did not change (docs/performance.md
/// "Steady speed"): the outcome must be the very one a whole decode gives, and only unchanged items are carried.
@Suite struct SnapshotReuseTests {
    /// One dialect-A item as upstream text; `extra` goes in as written (keys and values of its own).
    static func item(_ id: String, name: String = "Max", latitude: Double = 52.2297, extra: String = "") -> String {
        """
        {"id":"\(id)","petName":"\(name)","species":"DOG","sex":"MALE","description":"Friendly, answers to \\"Max\\" ]}{[",\
        "locationLatitude":\(latitude),"locationLongitude":21.0122,"lastSeenDate":"2024-11-15","email":"owner@example.com",\
        "phone":"+48123456789","photoUrl":"/images/\(id).jpg","status":"MISSING","createdAt":"2024-11-20T10:30:00.000Z"\(extra)}
        """
    }

    static func body(_ items: [String]) -> [UInt8] {
        Array("{\"data\": [\n\(items.joined(separator: ",\n "))\n]}".utf8)
    }

    /// A whole decode (nothing reused) and its snapshot.
    static func whole(_ items: [String], reunited: ReunitedPets = .none) throws -> (DecodedList, Snapshot) {
        let list = try AnnouncementDecoder.decodeList(bytes: body(items), places: nil, reusing: .none) { _ in nil }
        return (list, Snapshot(list, reunited: reunited, predecessor: nil))
    }

    /// A decode of `items` reusing `held`.
    static func reusing(_ held: Snapshot, _ items: [String], reunited: ReunitedPets = .none) throws -> (DecodedList, Snapshot) {
        let list = try AnnouncementDecoder.decodeList(bytes: body(items), places: nil, reusing: held.decoded) { held.item(at: $0) }
        return (list, Snapshot(list, reunited: reunited, predecessor: held))
    }

    static func expectSame(_ reused: ListOutcome, _ whole: ListOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reused.items == whole.items, sourceLocation: sourceLocation)
        #expect(reused.skipped == whole.skipped, sourceLocation: sourceLocation)
        #expect(reused.warnings == whole.warnings, sourceLocation: sourceLocation)
    }

    /// Items of every kind: valid, with a warning, invalid, a duplicate id, a bare number.
    static let mixed = [
        item("a"), item("b", extra: #","email2":1,"age":-3"#), item("c", extra: #","species":"DINOSAUR""#), "42",
        item("a", name: "Second a"), item("d", latitude: 50.06),
    ]

    @Test func the_same_list_again_is_reused_whole_with_the_same_outcome() throws {
        let (first, held) = try Self.whole(Self.mixed)
        let (again, next) = try Self.reusing(held, Self.mixed)
        Self.expectSame(again.outcome, first.outcome)
        #expect(first.outcome.items.map(\.id) == ["a", "b", "d"])
        #expect(first.outcome.warnings.count == 1)
        #expect(first.outcome.skipped.count == 3)
        #expect(again.reusedCount == 3)
        #expect(first.reusedCount == 0)
        #expect(next.predecessor == held.generation)
        #expect(next.carried == [0, 1, 2])
        #expect(next.skippedCount == held.skippedCount)
    }

    @Test func a_changed_and_a_new_item_are_decoded_the_rest_carried_where_they_moved() throws {
        let (_, held) = try Self.whole(Self.mixed)
        let changed = [Self.item("n"), Self.mixed[5], Self.mixed[2], Self.item("b", name: "Renamed"), Self.mixed[0]]
        let (reused, next) = try Self.reusing(held, changed)
        let (whole, _) = try Self.whole(changed)
        Self.expectSame(reused.outcome, whole.outcome)
        #expect(reused.outcome.items.map(\.id) == ["n", "d", "b", "a"])
        #expect(reused.outcome.items[2].petName == "Renamed")
        #expect(reused.reusedCount == 2)
        // d was at 2 and a at 0 in the held snapshot; n is new, b changed.
        #expect(next.carried == [-1, 2, -1, 0])
    }

    @Test func a_reunited_pet_is_split_again_by_the_new_set() throws {
        let home = ReunitedPets(at: ["b": Date(timeIntervalSince1970: 1_700_000_000)], version: 1)
        let (_, held) = try Self.whole(Self.mixed, reunited: home)
        #expect(held.index.items.map(\.id) == ["a", "d"])
        #expect(held.reunited.items.map(\.id) == ["b"])
        let (reused, next) = try Self.reusing(held, Self.mixed, reunited: .none)
        #expect(reused.reusedCount == 3)
        #expect(next.index.items.map(\.id) == ["a", "b", "d"])
        #expect(next.index.items[1].reunitedAt == nil)
        #expect(next.reunited.count == 0)
        // b was not listed in the held snapshot: it has no cards there to carry.
        #expect(next.carried == [0, -1, 1])
    }

    @Test func a_body_cut_after_a_known_item_is_still_not_json() throws {
        let (_, held) = try Self.whole(Self.mixed)
        let cut = Array("{\"data\": [\(Self.mixed[0]), \(Self.mixed[1])".utf8)
        #expect(throws: DecodingFailure.notJSON) {
            try AnnouncementDecoder.decodeList(bytes: cut, places: nil, reusing: held.decoded) { held.item(at: $0) }
        }
        let broken = Array("{\"data\": [\(Self.mixed[0]) \(Self.mixed[1])]}".utf8)
        #expect(throws: DecodingFailure.notJSON) {
            try AnnouncementDecoder.decodeList(bytes: broken, places: nil, reusing: held.decoded) { held.item(at: $0) }
        }
    }

    @Test func an_item_no_snapshot_holds_any_more_is_decoded_again() throws {
        let (first, held) = try Self.whole(Self.mixed)
        let list = try AnnouncementDecoder.decodeList(bytes: Self.body(Self.mixed), places: nil, reusing: held.decoded) { _ in nil }
        Self.expectSame(list.outcome, first.outcome)
        #expect(list.reusedCount == 0)
    }

    @Test func keys_follow_the_bytes_not_the_values() throws {
        // The same item with other white space is other bytes: decoded again, to the same announcement.
        let (_, held) = try Self.whole([Self.item("a")])
        let spaced = Self.item("a").replacingOccurrences(of: "\",\"", with: "\", \"")
        let (reused, _) = try Self.reusing(held, [spaced])
        #expect(reused.reusedCount == 0)
        #expect(reused.outcome.items == held.index.items)
    }
}
