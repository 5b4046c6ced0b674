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
    private let positions: [String: Int]
    /// For each (status?, species?) filter: positions in newest-first order, and in oldest-first order.
    private let newestBySubset: [[Int32]]
    private let oldestBySubset: [[Int32]]
    /// Rank of each item in the whole newest-first (and oldest-first) order: sorting a handful of
    /// candidates by rank gives the same order as the full sort, without comparing dates and ids again.
    private let newestRank: [Int32]
    private let oldestRank: [Int32]
    /// Items with coordinates, by grid cell.
    private let grid: CoordinateGrid
    /// Status, species and point of each item, apart: the located scan reads these instead of
    /// copying whole announcements (each copy retains a dozen strings).
    private let statuses: [AnnouncementStatus]
    private let kinds: [Species]
    private let points: [Coordinate?]

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
        grid = CoordinateGrid(items: items)
        statuses = items.map(\.status)
        kinds = items.map(\.species)
        points = items.map(\.place.coordinate)
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
    public func page(_ query: AnnouncementQuery, offset: Int, limit: Int) -> IndexPage {
        let offset = max(0, offset)
        let limit = max(0, limit)
        let subset = SubsetKey.key(status: query.status, species: query.species)
        guard let origin = query.origin else {
            // Unlocated: the precomputed order of the subset, sliced ("nearest" without an origin is newest).
            let order = query.sort == .oldest ? oldestBySubset[subset] : newestBySubset[subset]
            let slice = order.dropFirst(offset).prefix(limit)
            return IndexPage(
                total: order.count,
                all: items,
                positions: slice.map(Int.init),
                distancesKm: Array(repeating: nil, count: slice.count)
            )
        }
        // Located: only the grid cells that can hold items within range, then the exact distance
        // test. Without a range every item counts, city-only ones (no distance) last when nearest.
        var candidates: [(position: Int32, distance: Double)] = []
        if let rangeKm = query.rangeKm {
            grid.forEachCandidate(near: origin, withinKm: rangeKm) { position in
                let index = Int(position)
                if let status = query.status, statuses[index] != status { return }
                if let species = query.species, kinds[index] != species { return }
                // The same computation as `Announcement.distanceKm(from:)`, the distance pages show.
                guard let distance = points[index]?.distanceKm(to: origin), AnnouncementQuery.isInRange(distance, rangeKm: rangeKm) else { return }
                candidates.append((position, distance))
            }
        } else {
            candidates = newestBySubset[subset].map { ($0, points[Int($0)]?.distanceKm(to: origin) ?? .infinity) }
        }
        switch query.sort {
        case .newest:
            candidates.sort { newestRank[Int($0.position)] < newestRank[Int($1.position)] }
        case .oldest:
            candidates.sort { oldestRank[Int($0.position)] < oldestRank[Int($1.position)] }
        case .nearest:
            candidates.sort {
                $0.distance != $1.distance ? $0.distance < $1.distance : newestRank[Int($0.position)] < newestRank[Int($1.position)]
            }
        }
        let slice = candidates.dropFirst(offset).prefix(limit)
        return IndexPage(
            total: candidates.count,
            all: items,
            positions: slice.map { Int($0.position) },
            distancesKm: slice.map { $0.distance.isFinite ? $0.distance : nil }
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
private enum SubsetKey {
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
}

/// Items bucketed by a fixed grid of latitude/longitude cells (0.1° ≈ 11 km north–south), so a
/// located query visits the few cells its range's bounding box covers. The occupied cells are kept
/// sorted by (row, column) with their items in one flat array, so a query does one binary search
/// per row of its box instead of one hash lookup per cell (measured: the lookups were a tenth of a
/// random-location page, docs/performance.md).
struct CoordinateGrid: Sendable {
    /// Cell size in degrees.
    static let cellDegrees = 0.1
    /// Sorted keys of the occupied cells (`key(row:column:)`).
    private let cellKeys: [Int]
    /// Items of cell `i`: `positions[starts[i]..<starts[i + 1]]`, in item order.
    private let starts: [Int32]
    private let positions: [Int32]

    init(items: [Announcement]) {
        var keyed: [(key: Int, position: Int32)] = []
        keyed.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            guard let point = item.place.coordinate else { continue }
            let (row, column) = CoordinateGrid.cell(of: point)
            keyed.append((CoordinateGrid.key(row: row, column: column), Int32(position)))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        var cellKeys: [Int] = []
        var starts: [Int32] = []
        for (index, entry) in keyed.enumerated() where cellKeys.last != entry.key {
            cellKeys.append(entry.key)
            starts.append(Int32(index))
        }
        starts.append(Int32(keyed.count))
        self.cellKeys = cellKeys
        self.starts = starts
        positions = keyed.map(\.position)
    }

    private static func cell(of point: Coordinate) -> (row: Int, column: Int) {
        (Int((point.latitude / cellDegrees).rounded(.down)), Int((point.longitude / cellDegrees).rounded(.down)))
    }

    /// Orders cells by row, then column (rows are within ±900 and columns within ±1800).
    private static func key(row: Int, column: Int) -> Int {
        (row + 10_000) * 100_000 + (column + 50_000)
    }

    /// Calls `body` with every item whose cell meets the bounding box of the circle of `km` around
    /// `origin` (a superset of the items within range; the caller tests the distance). Near a pole
    /// or across the antimeridian, where a box in degrees is no longer a simple rectangle, it
    /// visits every item: correct, and rare.
    func forEachCandidate(near origin: Coordinate, withinKm km: Double, _ body: (Int32) -> Void) {
        // One degree of latitude is at least 110.5 km; pad by 1 % so rounding never loses an edge item.
        let latSpan = km / 110.5 * 1.01
        let south = origin.latitude - latSpan
        let north = origin.latitude + latSpan
        let widestLatitude = max(abs(south), abs(north))
        let cosine = cos(widestLatitude * .pi / 180)
        guard north < 89, south > -89, cosine > 0.01 else { return visitAll(body) }
        let lngSpan = km / (111.33 * cosine) * 1.01
        let west = origin.longitude - lngSpan
        let east = origin.longitude + lngSpan
        guard west > -180, east < 180 else { return visitAll(body) }
        let low = CoordinateGrid.cell(of: Coordinate(latitude: south, longitude: west) ?? origin)
        let high = CoordinateGrid.cell(of: Coordinate(latitude: north, longitude: east) ?? origin)
        for row in low.row...high.row {
            let last = CoordinateGrid.key(row: row, column: high.column)
            var cell = firstCell(atLeast: CoordinateGrid.key(row: row, column: low.column))
            while cell < cellKeys.count, cellKeys[cell] <= last {
                for index in Int(starts[cell])..<Int(starts[cell + 1]) { body(positions[index]) }
                cell += 1
            }
        }
    }

    /// The index of the first occupied cell whose key is at least `key` (binary search).
    private func firstCell(atLeast key: Int) -> Int {
        var low = 0
        var high = cellKeys.count
        while low < high {
            let middle = (low + high) / 2
            if cellKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func visitAll(_ body: (Int32) -> Void) {
        positions.forEach(body)
    }
}
