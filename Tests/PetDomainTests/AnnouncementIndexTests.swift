import Foundation
import PetDomain
import Testing

/// `AnnouncementIndex` (docs/scaling.md): the same items in the same order as `applying(_:)`, for every
/// filter, order, location, range and page, computed from the precomputed orders and the grid.
@Suite struct AnnouncementIndexTests {
    /// A seeded generator, so a failure can be reproduced.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `count` items over Poland, some sharing createdAt (tie on id), some city-only, some on the
    /// same spot (equal distances).
    static func items(_ count: Int, seed: UInt64) throws -> [Announcement] {
        var random = SplitMix(state: seed)
        let lastSeen = try day(2025, 11, 1)
        return try (0..<count).map { index in
            let place: Place
            switch index % 17 {
            case 0: place = .city(name: "Kamionka", radiusKm: 5)
            case 1: place = .coordinates(try coordinate(52.2297, 21.0122), address: nil)
            default:
                place = .coordinates(
                    try coordinate(
                        Double.random(in: 49.0...54.8, using: &random),
                        Double.random(in: 14.1...24.1, using: &random)
                    ),
                    address: nil
                )
            }
            let created = utc(2025, 11, 1 + Int.random(in: 0...20, using: &random), Int.random(in: 0...3, using: &random))
            return announcement(
                String(format: "id-%05d", Int.random(in: 0...99_999, using: &random)) + "-\(index)",
                status: AnnouncementStatus.allCases.randomElement(using: &random) ?? .missing,
                species: Species.allCases.randomElement(using: &random) ?? .dog,
                place: place,
                createdAt: created,
                lastSeen: lastSeen
            )
        }
    }

    @Test func index_pages_equal_applying_for_random_queries() throws {
        let items = try Self.items(600, seed: 11)
        let index = AnnouncementIndex(items: items)
        var random = SplitMix(state: 7)
        for round in 0..<400 {
            let located = round % 4 != 0
            let origin =
                located
                ? try coordinate(
                    Double.random(in: 49.0...54.8, using: &random),
                    Double.random(in: 14.1...24.1, using: &random)
                ) : nil
            let range: Double? = located ? [1, 15, 50, 150, 500, 2_000].randomElement(using: &random) : nil
            let query = AnnouncementQuery(
                status: Bool.random(using: &random) ? AnnouncementStatus.allCases.randomElement(using: &random) : nil,
                species: Bool.random(using: &random) ? Species.allCases.randomElement(using: &random) : nil,
                sort: SortOrder.allCases.randomElement(using: &random) ?? .newest,
                origin: origin,
                rangeKm: range
            )
            let expected = items.applying(query)
            let offset = [0, 0, 20, 40].randomElement(using: &random) ?? 0
            let page = index.page(query, offset: offset, limit: 20)

            #expect(page.total == expected.count, "round \(round)")
            #expect(page.items.map(\.id) == expected.dropFirst(offset).prefix(20).map(\.id), "round \(round)")
            let distances = expected.dropFirst(offset).prefix(20).map { item in origin.flatMap { item.distanceKm(from: $0) } }
            #expect(page.distancesKm == distances, "round \(round)")
        }
    }

    /// Items dense enough that whole cells lie inside a circle: a third within 6 km of Warsaw's
    /// centre, a few on the very spot, a few on the antimeridian and near the poles, a few city-only.
    static func denseItems(_ count: Int, seed: UInt64) throws -> [Announcement] {
        var random = SplitMix(state: seed)
        let lastSeen = try day(2025, 11, 1)
        return try (0..<count).map { index in
            let place: Place
            switch index % 23 {
            case 0: place = .city(name: "Kamionka", radiusKm: 5)
            case 1: place = .coordinates(try coordinate(52.2297, 21.0122), address: nil)
            case 2:
                place = .coordinates(
                    try coordinate(Double.random(in: -0.2...0.2, using: &random), [179.98, -179.98].randomElement(using: &random) ?? 180),
                    address: nil
                )
            case 3: place = .coordinates(try coordinate(89.95, Double.random(in: -180...180, using: &random)), address: nil)
            case 4...10:
                place = .coordinates(
                    try coordinate(
                        52.2297 + Double.random(in: -0.054...0.054, using: &random),
                        21.0122 + Double.random(in: -0.088...0.088, using: &random)
                    ),
                    address: nil
                )
            default:
                place = .coordinates(
                    try coordinate(
                        Double.random(in: 49.0...54.8, using: &random),
                        Double.random(in: 14.1...24.1, using: &random)
                    ),
                    address: nil
                )
            }
            // Few distinct instants, so many items tie on createdAt and the id decides.
            let created = utc(2025, 11, 1 + Int.random(in: 0...5, using: &random), Int.random(in: 0...1, using: &random))
            return announcement(
                String(format: "id-%05d", Int.random(in: 0...99_999, using: &random)) + "-\(index)",
                status: AnnouncementStatus.allCases.randomElement(using: &random) ?? .missing,
                species: Species.allCases.randomElement(using: &random) ?? .dog,
                place: place,
                createdAt: created,
                lastSeen: lastSeen
            )
        }
    }

    /// The cell-and-merge page against the reference scan (`scanPage`, every candidate visited and
    /// sorted) and against `applying(_:)`, byte for byte: filters, orders, pages past the end, ranges
    /// from a metre to half the Earth, ranges equal to an item's own distance, origins on the
    /// antimeridian, near a pole and in the dense cluster.
    @Test func cell_pages_equal_the_reference_scan_for_random_queries() throws {
        let items = try Self.denseItems(4_000, seed: 21)
        let index = AnnouncementIndex(items: items)
        let located = items.compactMap(\.place.coordinate)
        var random = SplitMix(state: 99)
        for round in 0..<600 {
            let origin: Coordinate =
                switch round % 6 {
                case 0: try coordinate(0.01, [179.99, -179.99, 180].randomElement(using: &random) ?? 180)
                case 1: try coordinate(89.9, Double.random(in: -180...180, using: &random))
                case 2, 3:
                    try coordinate(
                        52.2297 + Double.random(in: -0.05...0.05, using: &random),
                        21.0122 + Double.random(in: -0.05...0.05, using: &random)
                    )
                default:
                    try coordinate(Double.random(in: 49.0...54.8, using: &random), Double.random(in: 14.1...24.1, using: &random))
                }
            var range: Double = [0.001, 1, 3, 5, 15, 30, 100, 400, 2_000, 20_000].randomElement(using: &random) ?? 15
            if round % 5 == 4, let point = located.randomElement(using: &random) {
                // Exactly an item's distance (it is out), or the next number up (it is in).
                let exact = origin.distanceKm(to: point)
                range = Bool.random(using: &random) ? exact : exact.nextUp
            }
            let rangeKm: Double? = round % 37 == 0 ? nil : range
            let query = AnnouncementQuery(
                status: Bool.random(using: &random) ? AnnouncementStatus.allCases.randomElement(using: &random) : nil,
                species: Bool.random(using: &random) ? Species.allCases.randomElement(using: &random) : nil,
                sort: SortOrder.allCases.randomElement(using: &random) ?? .newest,
                origin: origin,
                rangeKm: rangeKm
            )
            let offset = [0, 0, 20, 40, 380, 100_000].randomElement(using: &random) ?? 0
            let limit = [20, 20, 50, 1, 0, Int.max].randomElement(using: &random) ?? 20
            let page = index.page(query, offset: offset, limit: limit)
            let reference = index.scanPage(query, offset: offset, limit: limit)

            #expect(page.total == reference.total, "round \(round)")
            #expect(page.positions == reference.positions, "round \(round)")
            #expect(page.distancesKm == reference.distancesKm, "round \(round)")
            if round % 10 == 0 {
                let expected = items.applying(query)
                #expect(page.total == expected.count, "round \(round)")
                let expectedIDs: [String] = expected.dropFirst(offset).prefix(limit).map(\.id)
                #expect(page.items.map(\.id) == expectedIDs, "round \(round)")
            }
        }
    }

    /// The wholly-inside cells are really used: a small circle in the dense cluster finds items,
    /// and a page of nearest ones starts at the item on the very spot.
    @Test func a_dense_circle_pages_nearest_first_from_the_spot() throws {
        let items = try Self.denseItems(2_000, seed: 4)
        let index = AnnouncementIndex(items: items)
        let spot = try coordinate(52.2297, 21.0122)
        let page = index.page(AnnouncementQuery(sort: .nearest, origin: spot, rangeKm: 5), offset: 0, limit: 20)
        #expect(page.total > 200)
        #expect(page.distancesKm.first == 0)
        #expect(page.distancesKm == page.distancesKm.sorted { ($0 ?? .infinity) < ($1 ?? .infinity) })
        #expect(page.positions == index.scanPage(AnnouncementQuery(sort: .nearest, origin: spot, rangeKm: 5), offset: 0, limit: 20).positions)
    }

    @Test func located_query_with_an_origin_but_no_range_keeps_city_only_items_last_when_nearest() throws {
        let items = try Self.items(120, seed: 3)
        let index = AnnouncementIndex(items: items)
        let query = AnnouncementQuery(sort: .nearest, origin: try coordinate(52.0, 20.0))
        let page = index.page(query, offset: 0, limit: 200)
        #expect(page.items.map(\.id) == items.applying(query).map(\.id))
        #expect(page.items.last?.place.coordinate == nil)
    }

    @Test func an_item_exactly_at_the_range_is_out_and_a_hair_inside_is_in() throws {
        let origin = try coordinate(52.0, 21.0)
        let north = try coordinate(52.0 + 0.1, 21.0)
        let items = [announcement("edge", place: .coordinates(north, address: nil), createdAt: utc(2025, 11, 1), lastSeen: try day(2025, 11, 1))]
        let index = AnnouncementIndex(items: items)
        let exact = origin.distanceKm(to: north)

        #expect(index.page(AnnouncementQuery(origin: origin, rangeKm: exact), offset: 0, limit: 5).total == 0)
        #expect(index.page(AnnouncementQuery(origin: origin, rangeKm: exact.nextUp), offset: 0, limit: 5).total == 1)
    }

    @Test func ranges_across_the_antimeridian_and_near_the_poles_find_their_items() throws {
        let lastSeen = try day(2025, 11, 1)
        let items = [
            announcement("east", place: .coordinates(try coordinate(0, 179.95), address: nil), createdAt: utc(2025, 11, 1), lastSeen: lastSeen),
            announcement("west", place: .coordinates(try coordinate(0, -179.95), address: nil), createdAt: utc(2025, 11, 2), lastSeen: lastSeen),
            announcement("pole", place: .coordinates(try coordinate(89.99, 40), address: nil), createdAt: utc(2025, 11, 3), lastSeen: lastSeen),
        ]
        let index = AnnouncementIndex(items: items)

        let dateLine = index.page(AnnouncementQuery(origin: try coordinate(0, 179.99), rangeKm: 20), offset: 0, limit: 5)
        #expect(Set(dateLine.items.map(\.id)) == ["east", "west"])
        let pole = index.page(AnnouncementQuery(origin: try coordinate(89.99, -140), rangeKm: 5), offset: 0, limit: 5)
        #expect(pole.items.map(\.id) == ["pole"])
    }

    @Test func ids_are_found_and_unknown_ids_are_not() throws {
        let items = try Self.items(30, seed: 5)
        let index = AnnouncementIndex(items: items)
        #expect(index.announcement(id: items[7].id)?.id == items[7].id)
        #expect(index.announcement(id: "nope") == nil)
        #expect(index.count == 30)
    }
}
