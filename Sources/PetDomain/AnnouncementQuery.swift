import Foundation

/// How a list is ordered (docs/upstream.md §4 `sort=`).
public enum SortOrder: String, Sendable, CaseIterable {
    /// Newest `createdAt` first, the default (docs/upstream.md §2 "order is ours").
    case newest
    /// Oldest `createdAt` first.
    case oldest
    /// Closest to the visitor first; needs an origin, otherwise behaves as `newest`.
    case nearest
}

/// Filters, order and size of a list a page asks for (docs/upstream.md §4 `/pets`, `/`).
public struct AnnouncementQuery: Sendable, Hashable {
    /// Only this status, or all when nil.
    public var status: AnnouncementStatus?
    /// Only this species, or all when nil.
    public var species: Species?
    /// The order.
    public var sort: SortOrder
    /// The visitor's location, when known.
    public var origin: Coordinate?
    /// With an origin: keep only items at most this many kilometres away.
    public var rangeKm: Double?
    /// At most this many items (after filtering and sorting); nil means all, 0 or less means none.
    public var limit: Int?

    /// Creates a query; the defaults give every item, newest first.
    public init(
        status: AnnouncementStatus? = nil,
        species: Species? = nil,
        sort: SortOrder = .newest,
        origin: Coordinate? = nil,
        rangeKm: Double? = nil,
        limit: Int? = nil
    ) {
        self.status = status
        self.species = species
        self.sort = sort
        self.origin = origin
        self.rangeKm = rangeKm
        self.limit = limit
    }
}

extension AnnouncementQuery {
    /// An item is in range when its distance (the very value the page shows, rounded) is strictly
    /// less than the range, as the backend filters (docs/upstream.md §1 "great-circle distance `< range`").
    /// Both use the Haversine formula; the backend's Earth radius may differ from ours
    /// (`Coordinate.earthRadiusKm`, 6371.0088 km, vs a common 6371 km): 1.4 ppm, under 3 cm at a
    /// 20 km boundary, so only an item within centimetres of the circle could land differently.
    public static func isInRange(_ distanceKm: Double, rangeKm: Double) -> Bool {
        distanceKm < rangeKm
    }
}

extension Array where Element == Announcement {
    /// The items that match `query`, in its order, cut to its limit.
    ///
    /// Range: with an origin and a range, only items closer than `rangeKm` stay (`isInRange`, the
    /// backend's own `< range`), and city-only items (dialect B), whose distance is unknown and so
    /// cannot be shown to be within range, are dropped.
    /// Nearest: by distance, city-only items last (newest first among them); equal distances fall
    /// back to newest. Every order ends with the id, so results are stable across requests.
    public func applying(_ query: AnnouncementQuery) -> [Announcement] {
        // Sort small keys, not whole announcements: moving 20-field structs costs retain/release.
        var keys: [SortKey] = []
        keys.reserveCapacity(count)
        for (index, item) in enumerated() {
            if let status = query.status, item.status != status { continue }
            if let species = query.species, item.species != species { continue }
            let distance = query.origin.flatMap { item.distanceKm(from: $0) }
            if query.origin != nil, let rangeKm = query.rangeKm {
                guard let distance, AnnouncementQuery.isInRange(distance, rangeKm: rangeKm) else { continue }
            }
            keys.append(SortKey(index: index, createdAt: item.createdAt, distance: distance))
        }

        let isNewer: (SortKey, SortKey) -> Bool = { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : self[lhs.index].id < self[rhs.index].id
        }
        switch query.sort {
        case .newest:
            keys.sort(by: isNewer)
        case .oldest:
            keys.sort { lhs, rhs in
                lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : self[lhs.index].id < self[rhs.index].id
            }
        case .nearest where query.origin != nil:
            keys.sort { lhs, rhs in
                switch (lhs.distance, rhs.distance) {
                case let (left?, right?) where left != right: left < right
                case (.some, nil): true
                case (nil, .some): false
                default: isNewer(lhs, rhs)
                }
            }
        case .nearest:
            keys.sort(by: isNewer)
        }

        let limit = query.limit.map { Swift.max(0, $0) } ?? keys.count
        return keys.prefix(limit).map { self[$0.index] }
    }
}

/// What `applying(_:)` sorts: a position in the input and the values the orders compare.
private struct SortKey {
    let index: Int
    let createdAt: Date
    let distance: Double?
}
