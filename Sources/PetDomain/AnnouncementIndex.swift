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
    /// Each item's point as a unit vector (x, y, z at `3 * position`; zeros without one): the chord
    /// between two of them settles most range tests with a few multiplications (`ChordTest`).
    private let units: [Double]

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
        points = items.map(\.place.coordinate)
        var units = [Double](repeating: 0, count: 3 * items.count)
        for (position, point) in points.enumerated() {
            guard let point else { continue }
            let vector = ChordTest.unitVector(point)
            units[3 * position] = vector.x
            units[3 * position + 1] = vector.y
            units[3 * position + 2] = vector.z
        }
        self.units = units
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
            return IndexPage(
                total: order.count,
                all: items,
                positions: slice,
                distancesKm: slice.map { points[$0]?.distanceKm(to: origin) }
            )
        }
        var plan = LocatedPlan(origin: origin, rangeKm: rangeKm, points: points, units: units)
        let order = query.sort == .oldest ? grid.byOldest : grid.byNewest
        let combos = SubsetKey.combos(status: query.status, species: query.species)
        let simple = grid.forEachGroup(near: origin, withinKm: rangeKm) { cell, combo, slots in
            guard combos & (1 << combo) != 0 else { return }
            plan.add(cell: cell, slots: slots, order: order)
        }
        // Near a pole or across the antimeridian the cells are not a simple box: visit every item.
        guard simple else { return scanPage(query, offset: offset, limit: limit) }
        let wanted = offset >= plan.total ? 0 : min(plan.total, offset + min(limit, plan.total))
        let positions: [Int32]
        switch query.sort {
        case .newest: positions = plan.firstByRank(wanted, order: order, rank: newestRank)
        case .oldest: positions = plan.firstByRank(wanted, order: order, rank: oldestRank)
        case .nearest: positions = plan.nearest(wanted, order: order, rank: newestRank)
        }
        let slice = positions.dropFirst(offset).map(Int.init)
        return IndexPage(
            total: plan.total,
            all: items,
            positions: slice,
            distancesKm: slice.map { points[$0]?.distanceKm(to: origin) }
        )
    }

    /// The reference answer, by visiting every candidate item: each item in range gets its distance
    /// and all are sorted. `page` uses it where the grid cannot help (no origin, nearest without a
    /// range, a circle over a pole or the antimeridian); the property tests compare `page` with it.
    public func scanPage(_ query: AnnouncementQuery, offset: Int, limit: Int) -> IndexPage {
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

    /// The exact status × species pair of an item, 0..<15 (the grid groups its items by it).
    static func combo(status: AnnouncementStatus, species: Species) -> Int {
        (AnnouncementStatus.allCases.firstIndex(of: status) ?? 0) * Species.allCases.count
            + (Species.allCases.firstIndex(of: species) ?? 0)
    }

    /// The pairs a filter admits, as a bit set over `combo(status:species:)`.
    static func combos(status: AnnouncementStatus?, species: Species?) -> Int {
        var bits = 0
        for candidate in AnnouncementStatus.allCases where status == nil || status == candidate {
            for kind in Species.allCases where species == nil || species == kind {
                bits |= 1 << combo(status: candidate, species: kind)
            }
        }
        return bits
    }
}

/// A range test on unit vectors: the straight-line chord between two points on the unit sphere
/// grows with their great-circle distance (d = 2R·asin(c/2)), so comparing the squared chord with
/// the chords of `range − 1 mm` and `range + 1 mm` decides every item but those within a millimetre
/// of the circle, which get the exact distance the page shows. The rounding of either computation is
/// below a micrometre, so no item lands differently from the exact test (AnnouncementIndexTests).
struct ChordTest {
    enum Verdict { case inside, outside, unsure }

    private let x: Double
    private let y: Double
    private let z: Double
    /// Squared chords of `range − slack` (surely in below) and `range + slack` (surely out above).
    private let surelyIn: Double
    private let surelyOut: Double

    static let slackKm = 1e-6

    init(origin: Coordinate, rangeKm: Double) {
        (x, y, z) = ChordTest.unitVector(origin)
        func squaredChord(_ km: Double) -> Double {
            // Beyond half the Earth's circumference every point is nearer: no chord is longer than 2.
            let angle = min(max(0, km), .pi * Coordinate.earthRadiusKm) / Coordinate.earthRadiusKm
            let chord = 2 * sin(angle / 2)
            return chord * chord
        }
        surelyIn = rangeKm - ChordTest.slackKm > 0 ? squaredChord(rangeKm - ChordTest.slackKm) : -1
        surelyOut = rangeKm + ChordTest.slackKm < .pi * Coordinate.earthRadiusKm ? squaredChord(rangeKm + ChordTest.slackKm) : 5
    }

    static func unitVector(_ point: Coordinate) -> (x: Double, y: Double, z: Double) {
        let latitude = point.latitude * .pi / 180
        let longitude = point.longitude * .pi / 180
        return (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
    }

    @inline(__always) func verdict(_ px: Double, _ py: Double, _ pz: Double) -> Verdict {
        let dx = px - x
        let dy = py - y
        let dz = pz - z
        let squared = dx * dx + dy * dy + dz * dz
        if squared < surelyIn { return .inside }
        if squared > surelyOut { return .outside }
        return .unsure
    }
}

/// A cell of the grid: `row` counts `CoordinateGrid.cellDegrees` of latitude, `column` of longitude.
struct GridCell: Equatable {
    var row: Int
    var column: Int
}

/// What a located query with a range found in the grid: how many items are in range, and the
/// ordered runs of positions its page is drawn from. A cell wholly inside the circle gives its
/// groups' slots of the grid's order untouched; a cell on the edge gives the items that passed the
/// distance test, still in that order, copied to `kept`.
private struct LocatedPlan {
    /// A run: `start..<end` of the grid's order (or of `kept`), and a lower bound on the distance
    /// of every item in it (for nearest).
    struct Run {
        var start: Int
        var end: Int
        var isKept: Bool
        var lowerBoundKm: Double
    }

    let origin: Coordinate
    let rangeKm: Double
    let points: [Coordinate?]
    private(set) var total = 0
    private var runs: [Run] = []
    private var kept: [Int32] = []
    private var lastCell: GridCell?
    private var lastRow: Int?
    private var rowRadiusKm = 0.0
    private var lowerBoundKm = 0.0
    private var isInside = false

    let units: [Double]
    private let chord: ChordTest

    init(origin: Coordinate, rangeKm: Double, points: [Coordinate?], units: [Double]) {
        self.origin = origin
        self.rangeKm = rangeKm
        self.points = points
        self.units = units
        chord = ChordTest(origin: origin, rangeKm: rangeKm)
    }

    /// Adds the group at `slots` of `order` in `cell`.
    mutating func add(cell: GridCell, slots: Range<Int>, order: [Int32]) {
        if cell != lastCell { classify(cell) }
        // The bounds carry a millimetre of slack, far above the rounding of the distance formula,
        // so a cell is called inside (or outside) only when every item's computed distance is.
        if lowerBoundKm >= rangeKm { return }
        if isInside {
            total += slots.count
            runs.append(Run(start: slots.lowerBound, end: slots.upperBound, isKept: false, lowerBoundKm: lowerBoundKm))
            return
        }
        let start = kept.count
        for slot in slots {
            let position = order[slot]
            let base = 3 * Int(position)
            switch chord.verdict(units[base], units[base + 1], units[base + 2]) {
            case .inside: kept.append(position)
            case .outside: continue
            case .unsure:
                // The same computation as `Announcement.distanceKm(from:)`, the distance pages show.
                guard let distance = points[Int(position)]?.distanceKm(to: origin), AnnouncementQuery.isInRange(distance, rangeKm: rangeKm)
                else { continue }
                kept.append(position)
            }
        }
        guard kept.count > start else { return }
        total += kept.count - start
        runs.append(Run(start: start, end: kept.count, isKept: true, lowerBoundKm: lowerBoundKm))
    }

    /// Bounds of the distance from the origin to any point of `cell`: the distance to its centre
    /// plus or minus the distance from the centre to its farthest corner (the triangle inequality;
    /// the farthest point of a latitude/longitude rectangle from its centre is a corner).
    private mutating func classify(_ cell: GridCell) {
        lastCell = cell
        let size = CoordinateGrid.cellDegrees
        let center = Coordinate(latitude: (Double(cell.row) + 0.5) * size, longitude: (Double(cell.column) + 0.5) * size) ?? origin
        if lastRow != cell.row {
            lastRow = cell.row
            // A point may land a rounding error outside its cell's rectangle: widen it by 1e-9°.
            let half = size / 2 + 1e-9
            let corners = [(-half, -half), (half, -half)].compactMap { delta in
                Coordinate(latitude: center.latitude + delta.0, longitude: center.longitude + delta.1)
            }
            rowRadiusKm = corners.map { center.distanceKm(to: $0) }.max() ?? .infinity
        }
        let toCenter = origin.distanceKm(to: center)
        let slack = 1e-6
        lowerBoundKm = toCenter - rowRadiusKm - slack
        isInside = toCenter + rowRadiusKm + slack < rangeKm
    }

    private func position(_ run: Run, _ slot: Int, _ order: [Int32]) -> Int32 {
        run.isKept ? kept[slot] : order[slot]
    }

    /// The first `wanted` positions in `rank` order: a k-way merge of the runs, each already in that order.
    func firstByRank(_ wanted: Int, order: [Int32], rank: [Int32]) -> [Int32] {
        guard wanted > 0, !runs.isEmpty else { return [] }
        var cursors = runs.map(\.start)
        // A binary min-heap of (rank of the run's next item, run).
        var heap: [(rank: Int32, run: Int)] = runs.indices.map { (rank[Int(position(runs[$0], cursors[$0], order))], $0) }
        func siftDown(_ from: Int) {
            var parent = from
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                let right = left + 1
                let child = right < heap.count && heap[right].rank < heap[left].rank ? right : left
                guard heap[child].rank < heap[parent].rank else { return }
                heap.swapAt(child, parent)
                parent = child
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        var result: [Int32] = []
        result.reserveCapacity(wanted)
        while result.count < wanted, let top = heap.first {
            let run = runs[top.run]
            result.append(position(run, cursors[top.run], order))
            cursors[top.run] += 1
            if cursors[top.run] < run.end {
                heap[0].rank = rank[Int(position(run, cursors[top.run], order))]
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            siftDown(0)
        }
        return result
    }

    /// The `wanted` nearest positions, ties newest first (`rank`): runs closest first, kept in a
    /// bounded max-heap, stopping at the first run whose lower bound is beyond the farthest kept.
    func nearest(_ wanted: Int, order: [Int32], rank: [Int32]) -> [Int32] {
        guard wanted > 0 else { return [] }
        typealias Entry = (distance: Double, rank: Int32, position: Int32)
        func isBefore(_ lhs: Entry, _ rhs: Entry) -> Bool {
            lhs.distance != rhs.distance ? lhs.distance < rhs.distance : lhs.rank < rhs.rank
        }
        var heap: [Entry] = []  // max-heap by `isBefore`
        heap.reserveCapacity(min(wanted, total))
        func siftDown(_ from: Int) {
            var parent = from
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                let right = left + 1
                let child = right < heap.count && isBefore(heap[left], heap[right]) ? right : left
                guard isBefore(heap[parent], heap[child]) else { return }
                heap.swapAt(child, parent)
                parent = child
            }
        }
        func siftUp(_ from: Int) {
            var child = from
            while child > 0 {
                let parent = (child - 1) / 2
                guard isBefore(heap[parent], heap[child]) else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        for run in runs.sorted(by: { $0.lowerBoundKm < $1.lowerBoundKm }) {
            if heap.count == wanted, let farthest = heap.first, run.lowerBoundKm > farthest.distance { break }
            for slot in run.start..<run.end {
                let item = position(run, slot, order)
                guard let distance = points[Int(item)]?.distanceKm(to: origin) else { continue }
                let entry: Entry = (distance, rank[Int(item)], item)
                if heap.count < wanted {
                    heap.append(entry)
                    siftUp(heap.count - 1)
                } else if isBefore(entry, heap[0]) {
                    heap[0] = entry
                    siftDown(0)
                }
            }
        }
        return heap.sorted(by: isBefore).map(\.position)
    }
}

/// Items bucketed by a fixed grid of latitude/longitude cells (0.1° ≈ 11 km north–south), so a
/// located query visits the few cells its range's bounding box covers. Within a cell the items are
/// grouped by their exact status × species pair, each group in newest-first order (`byNewest`) and
/// in oldest-first order (`byOldest`): a filter picks whole groups, and a group wholly inside a
/// circle is a ready-made ordered list. The occupied groups are kept sorted by (row, column, pair)
/// with their items in flat arrays, so a query does one binary search per row of its box instead
/// of one hash lookup per cell (measured: the lookups were a tenth of a random-location page,
/// docs/performance.md).
struct CoordinateGrid: Sendable {
    /// Cell size in degrees.
    static let cellDegrees = 0.1
    /// Sorted keys of the occupied groups: `key(row:column:) << 4 | pair`.
    private let groupKeys: [Int]
    /// Items of group `i`: slots `starts[i]..<starts[i + 1]` of `byNewest` and of `byOldest`.
    private let starts: [Int32]
    /// Positions of the located items, group by group, newest first within a group.
    let byNewest: [Int32]
    /// The same, oldest first within a group.
    let byOldest: [Int32]

    init(items: [Announcement], newestRank: [Int32], oldestRank: [Int32]) {
        var keyed: [(key: Int, position: Int32)] = []
        keyed.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            guard let point = item.place.coordinate else { continue }
            let cell = CoordinateGrid.cell(of: point)
            let pair = SubsetKey.combo(status: item.status, species: item.species)
            keyed.append((CoordinateGrid.key(row: cell.row, column: cell.column) << 4 | pair, Int32(position)))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : newestRank[Int($0.position)] < newestRank[Int($1.position)] }
        var groupKeys: [Int] = []
        var starts: [Int32] = []
        for (index, entry) in keyed.enumerated() where groupKeys.last != entry.key {
            groupKeys.append(entry.key)
            starts.append(Int32(index))
        }
        starts.append(Int32(keyed.count))
        let byNewest = keyed.map(\.position)
        var byOldest = byNewest
        for group in groupKeys.indices {
            byOldest[Int(starts[group])..<Int(starts[group + 1])].sort { oldestRank[Int($0)] < oldestRank[Int($1)] }
        }
        self.groupKeys = groupKeys
        self.starts = starts
        self.byNewest = byNewest
        self.byOldest = byOldest
    }

    private static func cell(of point: Coordinate) -> GridCell {
        GridCell(row: Int((point.latitude / cellDegrees).rounded(.down)), column: Int((point.longitude / cellDegrees).rounded(.down)))
    }

    /// Orders cells by row, then column (rows are within ±900 and columns within ±1800).
    private static func key(row: Int, column: Int) -> Int {
        (row + 10_000) * 100_000 + (column + 50_000)
    }

    /// The cells of the bounding box of the circle of `km` around `origin`, or nil near a pole or
    /// across the antimeridian, where a box in degrees is no longer a simple rectangle.
    private func box(near origin: Coordinate, withinKm km: Double) -> (low: GridCell, high: GridCell)? {
        // One degree of latitude is at least 110.5 km; pad by 1 % so rounding never loses an edge item.
        let latSpan = km / 110.5 * 1.01
        let south = origin.latitude - latSpan
        let north = origin.latitude + latSpan
        let widestLatitude = max(abs(south), abs(north))
        let cosine = cos(widestLatitude * .pi / 180)
        guard north < 89, south > -89, cosine > 0.01 else { return nil }
        let lngSpan = km / (111.33 * cosine) * 1.01
        let west = origin.longitude - lngSpan
        let east = origin.longitude + lngSpan
        guard west > -180, east < 180 else { return nil }
        let low = CoordinateGrid.cell(of: Coordinate(latitude: south, longitude: west) ?? origin)
        let high = CoordinateGrid.cell(of: Coordinate(latitude: north, longitude: east) ?? origin)
        return (low, high)
    }

    /// Calls `body` with each occupied group (cell, status × species pair, slots in `byNewest` and
    /// `byOldest`) whose cell meets the bounding box of the circle of `km` around `origin`, in
    /// (row, column, pair) order. Returns false, having called nothing, where the box is not a simple
    /// rectangle (`box(near:withinKm:)`): the caller must look another way.
    func forEachGroup(near origin: Coordinate, withinKm km: Double, _ body: (GridCell, Int, Range<Int>) -> Void) -> Bool {
        guard let (low, high) = box(near: origin, withinKm: km) else { return false }
        for row in low.row...high.row {
            let last = CoordinateGrid.key(row: row, column: high.column) << 4 | 15
            var group = firstGroup(atLeast: CoordinateGrid.key(row: row, column: low.column) << 4)
            while group < groupKeys.count, groupKeys[group] <= last {
                let cellKey = groupKeys[group] >> 4
                let cell = GridCell(row: row, column: cellKey % 100_000 - 50_000)
                body(cell, groupKeys[group] & 15, Int(starts[group])..<Int(starts[group + 1]))
                group += 1
            }
        }
        return true
    }

    /// Calls `body` with every item whose cell meets the bounding box of the circle of `km` around
    /// `origin` (a superset of the items within range; the caller tests the distance). Near a pole
    /// or across the antimeridian it visits every item: correct, and rare.
    func forEachCandidate(near origin: Coordinate, withinKm km: Double, _ body: (Int32) -> Void) {
        let simple = forEachGroup(near: origin, withinKm: km) { _, _, slots in
            for slot in slots { body(byNewest[slot]) }
        }
        if !simple { byNewest.forEach(body) }
    }

    /// The index of the first occupied group whose key is at least `key` (binary search).
    private func firstGroup(atLeast key: Int) -> Int {
        var low = 0
        var high = groupKeys.count
        while low < high {
            let middle = (low + high) / 2
            if groupKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
