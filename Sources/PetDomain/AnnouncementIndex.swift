import Foundation

/// Everything a page asks of one upstream snapshot, computed once when the snapshot arrives
/// (docs/scaling.md; docs/style.md "precompute per data change, not per request"):
/// the newest/oldest orders of every status × species subset, the position of each item in
/// those orders, the ids, and a grid of coordinates so a located query looks only at the items
/// near the visitor. Immutable after `init`, so any number of requests may read it at once; a class,
/// so handing it around costs one retain, not one per array it holds.
public final class AnnouncementIndex: Sendable {
    /// The valid items in upstream order; every other array here holds positions in it.
    public let items: [Announcement]
    /// Position of each item by id.
    let positions: [String: Int]
    /// For each (status?, species?) filter: positions in newest-first order, and in oldest-first order.
    let newestBySubset: [[Int32]]
    let oldestBySubset: [[Int32]]
    /// Rank of each item in the whole newest-first (and oldest-first) order: sorting a handful of
    /// candidates by rank gives the same order as the full sort, without comparing dates and ids again.
    let newestRank: [Int32]
    let oldestRank: [Int32]
    /// Items with coordinates, by grid cell.
    let grid: CoordinateGrid
    /// Status, species and point of each item, apart: the located scan reads these instead of
    /// copying whole announcements (each copy retains a dozen strings).
    let statuses: [AnnouncementStatus]
    let kinds: [Species]
    let points: [MeasuredPoint?]

    /// Indexes `items` (valid, de-duplicated, in upstream order).
    public init(items: [Announcement]) {
        self.items = items
        var positions: [String: Int] = [:]
        positions.reserveCapacity(items.count)
        for (position, item) in items.enumerated() where positions[item.id] == nil {
            positions[item.id] = position
        }
        self.positions = positions

        // The orders of `applying(_:)`: createdAt, then id, so every order is total and stable.
        let all = Array(0..<Int32(items.count))
        let newest = all.sorted { lhs, rhs in
            let left = items[Int(lhs)]
            let right = items[Int(rhs)]
            return left.createdAt != right.createdAt ? left.createdAt > right.createdAt : left.id < right.id
        }
        let oldest = all.sorted { lhs, rhs in
            let left = items[Int(lhs)]
            let right = items[Int(rhs)]
            return left.createdAt != right.createdAt ? left.createdAt < right.createdAt : left.id < right.id
        }
        var newestRank = [Int32](repeating: 0, count: items.count)
        var oldestRank = [Int32](repeating: 0, count: items.count)
        for (rank, position) in newest.enumerated() { newestRank[Int(position)] = Int32(rank) }
        for (rank, position) in oldest.enumerated() { oldestRank[Int(position)] = Int32(rank) }
        self.newestRank = newestRank
        self.oldestRank = oldestRank

        var newestBySubset = [[Int32]](repeating: [], count: SubsetKey.count)
        var oldestBySubset = [[Int32]](repeating: [], count: SubsetKey.count)
        for position in newest {
            for key in SubsetKey.keys(of: items[Int(position)]) { newestBySubset[key].append(position) }
        }
        for position in oldest {
            for key in SubsetKey.keys(of: items[Int(position)]) { oldestBySubset[key].append(position) }
        }
        self.newestBySubset = newestBySubset
        self.oldestBySubset = oldestBySubset
        grid = CoordinateGrid(items: items, newestRank: newestRank, oldestRank: oldestRank)
        statuses = items.map(\.status)
        kinds = items.map(\.species)
        points = items.map { $0.place.coordinate.map(MeasuredPoint.init) }
    }

    /// Number of valid items.
    public var count: Int { items.count }

    /// The item with `id`, when the snapshot holds it.
    public func announcement(id: String) -> Announcement? {
        positions[id].map { items[$0] }
    }

    /// One page of the items matching `query` (its `limit` is ignored: `offset`/`limit` here say
    /// which slice), with the total count and each item's distance from the query's origin.
    /// Same items, same order as `items.applying(query)`.
    ///
    /// A located page with a range costs what it shows, not what is in range (docs/performance.md
    /// "Located pages"): cells wholly inside the circle add their counts and their items already in
    /// order, only the cells on its edge test each item's distance; newest/oldest take the first
    /// `offset + limit` by a merge of those ordered lists, nearest visits cells closest first and stops
    /// when the next cell cannot hold anything nearer than the last item kept.
    public func page(_ query: AnnouncementQuery, offset: Int, limit: Int) -> IndexPage {
        let offset = max(0, offset)
        let limit = max(0, limit)
        guard let origin = query.origin else { return scanPage(query, offset: offset, limit: limit) }
        guard let rangeKm = query.rangeKm else {
            // Every item counts: newest and oldest are the subset's precomputed order; nearest
            // without a range (the API only) sorts them all.
            guard query.sort != .nearest else { return scanPage(query, offset: offset, limit: limit) }
            let subset = SubsetKey.key(status: query.status, species: query.species)
            let order = query.sort == .oldest ? oldestBySubset[subset] : newestBySubset[subset]
            let slice = order.dropFirst(offset).prefix(limit).map(Int.init)
            let distances = DistancesTo(origin)
            return IndexPage(
                total: order.count,
                all: items,
                positions: slice,
                distancesKm: slice.map { points[$0].map(distances.km(from:)) }
            )
        }
        let oldest = query.sort == .oldest
        var plan = LocatedPlan(
            origin: origin,
            rangeKm: rangeKm,
            points: points,
            order: oldest ? grid.oldest : grid.newest,
            pairs: oldest ? grid.oldestPairs : grid.newestPairs,
            combos: query.status == nil && query.species == nil ? nil : SubsetKey.combos(status: query.status, species: query.species)
        )
        let simple = grid.forEachCell(near: origin, withinKm: rangeKm) { cell, slots in
            plan.add(cell: cell, slots: slots)
        }
        // Near a pole or across the antimeridian the cells are not a simple box: visit every item.
        guard simple else { return scanPage(query, offset: offset, limit: limit) }
        let wanted = offset >= plan.total ? 0 : min(plan.total, offset + min(limit, plan.total))
        let positions: [Int32]
        switch query.sort {
        case .newest, .oldest: positions = plan.firstByRank(wanted)
        case .nearest: positions = plan.nearest(wanted)
        }
        let slice = positions.dropFirst(offset).map(Int.init)
        // The points first, then the distances: the loads do not wait for each other's Haversine,
        // so their cache misses overlap (a point is rarely in cache at 50,000 items).
        let slicePoints = slice.map { points[$0] }
        let distances = DistancesTo(origin)
        return IndexPage(
            total: plan.total,
            all: items,
            positions: slice,
            distancesKm: slicePoints.map { $0.map(distances.km(from:)) }
        )
    }
}

/// One slice of a query's answer.
public struct IndexPage: Sendable {
    /// How many items match in all (for "24 pets" and the page count).
    public var total: Int
    /// All items of the index (shared storage, not a copy).
    public let all: [Announcement]
    /// Positions in `all` of the slice, in the query's order: what per-snapshot caches key on.
    public var positions: [Int]
    /// Distance of each item from the query's origin (nil without an origin or for a city-only place).
    public var distancesKm: [Double?]

    /// The slice, in the query's order.
    public var items: [Announcement] { positions.map { all[$0] } }
}

/// The 24 status × species subsets (each may be "any"), numbered densely.
enum SubsetKey {
    static let statuses: [AnnouncementStatus?] = [nil] + AnnouncementStatus.allCases.map { $0 }
    static let species: [Species?] = [nil] + Species.allCases.map { $0 }
    static let count = statuses.count * species.count

    static func key(status: AnnouncementStatus?, species: Species?) -> Int {
        let statusIndex = status.flatMap { value in statuses.firstIndex(of: value) } ?? 0
        let speciesIndex = species.flatMap { value in self.species.firstIndex(of: value) } ?? 0
        return statusIndex * self.species.count + speciesIndex
    }

    /// The four subsets an item belongs to: any/any, its status/any, any/its species, both.
    static func keys(of item: Announcement) -> [Int] {
        [
            key(status: nil, species: nil), key(status: item.status, species: nil),
            key(status: nil, species: item.species), key(status: item.status, species: item.species),
        ]
    }

    /// The exact status × species pair of an item, 0..<15 (the grid keeps it beside each slot).
    static func combo(status: AnnouncementStatus, species: Species) -> Int {
        (AnnouncementStatus.allCases.firstIndex(of: status) ?? 0) * Species.allCases.count
            + (Species.allCases.firstIndex(of: species) ?? 0)
    }

    /// The pairs a filter admits, as a bit set over `combo(status:species:)`: read from a table
    /// made once (the loops below cost 2,000 instructions per located page, callgrind).
    static func combos(status: AnnouncementStatus?, species: Species?) -> Int {
        combosByKey[key(status: status, species: species)]
    }

    /// `combos(status:species:)` of each subset, by `key(status:species:)`.
    private static let combosByKey: [Int] = statuses.flatMap { status in species.map { countCombos(status: status, species: $0) } }

    private static func countCombos(status: AnnouncementStatus?, species: Species?) -> Int {
        var bits = 0
        for candidate in AnnouncementStatus.allCases where status == nil || status == candidate {
            for kind in Species.allCases where species == nil || species == kind {
                bits |= 1 << combo(status: candidate, species: kind)
            }
        }
        return bits
    }
}
