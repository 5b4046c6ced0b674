import Foundation
import PetDomain
import Testing

/// `applying(_:)`: filters, orders and limits (docs/upstream.md §2 "order is ours", §4 `/pets`, `/`).
@Suite struct QueryTests {
    let warsaw: Coordinate
    let items: [Announcement]

    init() throws {
        warsaw = try coordinate(52.2297, 21.0122)
        let lastSeen = try day(2025, 11, 1)
        items = [
            // ~0 km, oldest
            announcement(
                "near",
                status: .missing,
                species: .dog,
                place: .coordinates(warsaw, address: nil),
                createdAt: utc(2025, 11, 1),
                lastSeen: lastSeen
            ),
            // ~10.5 km north
            announcement(
                "ten",
                status: .found,
                species: .cat,
                place: .coordinates(try coordinate(52.3240, 21.0122), address: nil),
                createdAt: utc(2025, 11, 3),
                lastSeen: lastSeen
            ),
            // Kraków ~252 km, newest
            announcement(
                "far",
                status: .missing,
                species: .cat,
                place: .coordinates(try coordinate(50.0647, 19.9450), address: nil),
                createdAt: utc(2025, 11, 5),
                lastSeen: lastSeen
            ),
            // no coordinates (dialect B)
            announcement(
                "city",
                status: .closed,
                species: .dog,
                place: .city(name: "Kamionka", radiusKm: 5),
                createdAt: utc(2025, 11, 4),
                lastSeen: lastSeen
            ),
            // same createdAt as "ten": tie broken by id
            announcement(
                "a-tie",
                status: .missing,
                species: .bird,
                place: .coordinates(try coordinate(52.2400, 21.0122), address: nil),
                createdAt: utc(2025, 11, 3),
                lastSeen: lastSeen
            ),
        ]
    }

    @Test func query_default_is_newest_first_with_id_tie_break() {
        #expect(items.applying(AnnouncementQuery()).map(\.id) == ["far", "city", "a-tie", "ten", "near"])
    }

    @Test func query_oldest_first() {
        #expect(items.applying(AnnouncementQuery(sort: .oldest)).map(\.id) == ["near", "a-tie", "ten", "city", "far"])
    }

    @Test func query_filters_by_status_and_species() {
        #expect(items.applying(AnnouncementQuery(status: .missing)).map(\.id) == ["far", "a-tie", "near"])
        #expect(items.applying(AnnouncementQuery(species: .cat)).map(\.id) == ["far", "ten"])
        #expect(items.applying(AnnouncementQuery(status: .missing, species: .cat)).map(\.id) == ["far"])
        #expect(items.applying(AnnouncementQuery(status: .closed, species: .cat)).isEmpty)
    }

    @Test func query_nearest_sorts_by_distance_and_puts_city_only_items_last() {
        let result = items.applying(AnnouncementQuery(sort: .nearest, origin: warsaw))
        #expect(result.map(\.id) == ["near", "a-tie", "ten", "far", "city"])
    }

    @Test func query_nearest_without_origin_falls_back_to_newest() {
        #expect(
            items.applying(AnnouncementQuery(sort: .nearest)).map(\.id)
                == items.applying(AnnouncementQuery(sort: .newest)).map(\.id)
        )
    }

    @Test func query_range_keeps_items_within_range_and_drops_city_only_items() {
        let within11 = items.applying(AnnouncementQuery(origin: warsaw, rangeKm: 11))
        #expect(within11.map(\.id) == ["a-tie", "ten", "near"])
        let within5 = items.applying(AnnouncementQuery(sort: .nearest, origin: warsaw, rangeKm: 5))
        #expect(within5.map(\.id) == ["near", "a-tie"])
    }

    @Test func query_range_boundary_is_exclusive_like_the_backend() throws {
        let exact = try #require(items[1].distanceKm(from: warsaw))
        let atBoundary = items.applying(AnnouncementQuery(origin: warsaw, rangeKm: exact))
        #expect(!atBoundary.map(\.id).contains("ten"))
        let justBeyond = items.applying(AnnouncementQuery(origin: warsaw, rangeKm: exact.nextUp))
        #expect(justBeyond.map(\.id).contains("ten"))
    }

    @Test func query_range_without_origin_filters_nothing() {
        #expect(items.applying(AnnouncementQuery(rangeKm: 1)).count == items.count)
    }

    @Test func query_limit_cuts_after_sorting() {
        #expect(items.applying(AnnouncementQuery(limit: 2)).map(\.id) == ["far", "city"])
        #expect(items.applying(AnnouncementQuery(limit: 0)).isEmpty)
        #expect(items.applying(AnnouncementQuery(limit: -1)).isEmpty)
        #expect(items.applying(AnnouncementQuery(limit: 99)).count == 5)
    }

    @Test func query_landing_page_takes_five_most_recent_within_range() {
        let landing = items.applying(AnnouncementQuery(origin: warsaw, rangeKm: 10, limit: 5))
        #expect(landing.map(\.id) == ["a-tie", "near"])
    }
}
