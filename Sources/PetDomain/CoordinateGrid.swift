import Foundation

/// Items bucketed by a fixed grid of latitude/longitude cells (0.1° ≈ 11 km north–south), so a
/// located query visits the few cells its range's bounding box covers. Within a cell the items are in
/// newest-first order (`newest`) and in oldest-first order (`oldest`), each slot with its status ×
/// species pair beside it (`newestPairs`, `oldestPairs`): a cell wholly inside a circle is a
/// ready-made ordered list, and a filter picks from it. (Cells were split by pair once; an unfiltered
/// query then merged about a hundred short runs for one feed, where it now merges a run per cell:
/// docs/performance.md "Located pages".) The occupied cells are kept sorted by (row, column) with
/// their items in flat arrays, so a query does one binary search per row of its box instead of one
/// hash lookup per cell (measured: the lookups were a tenth of a random-location page).
struct CoordinateGrid: Sendable {
    /// Cell size in degrees.
    static let cellDegrees = 0.1
    /// Sorted keys of the occupied cells: `key(row:column:)`.
    private let cellKeys: [Int]
    /// Items of cell `i`: slots `starts[i]..<starts[i + 1]` of `newest` and of `oldest`.
    private let starts: [Int32]
    /// A located item as a query reads it: its point as a unit vector (`ChordTest`), its rank in the
    /// slot's order and its position in the snapshot. Kept in slot order so a query reads a cell's
    /// items in sequence: with the vectors in position order, 68 % of a located query was the load of
    /// a vector from a cache line of another part of the snapshot (docs/performance.md "Located pages").
    struct Slot {
        let x: Double
        let y: Double
        let z: Double
        let rank: Int32
        let position: Int32
    }
    /// The located items, cell by cell, newest first within a cell (rank: `newestRank`).
    let newest: [Slot]
    /// The same, oldest first within a cell (rank: `oldestRank`).
    let oldest: [Slot]
    /// The status × species pair (`SubsetKey.combo(status:species:)`) of each slot of `newest` / `oldest`.
    let newestPairs: [UInt8]
    let oldestPairs: [UInt8]

    init(items: [Announcement], newestRank: [Int32], oldestRank: [Int32]) {
        var keyed: [(key: Int, position: Int32)] = []
        keyed.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            guard let point = item.place.coordinate else { continue }
            let cell = CoordinateGrid.cell(of: point)
            keyed.append((CoordinateGrid.key(row: cell.row, column: cell.column), Int32(position)))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : newestRank[Int($0.position)] < newestRank[Int($1.position)] }
        var cellKeys: [Int] = []
        var starts: [Int32] = []
        for (index, entry) in keyed.enumerated() where cellKeys.last != entry.key {
            cellKeys.append(entry.key)
            starts.append(Int32(index))
        }
        starts.append(Int32(keyed.count))
        let byNewest = keyed.map(\.position)
        var byOldest = byNewest
        for cell in cellKeys.indices {
            byOldest[Int(starts[cell])..<Int(starts[cell + 1])].sort { oldestRank[Int($0)] < oldestRank[Int($1)] }
        }
        func slots(_ positions: [Int32], rank: [Int32]) -> [Slot] {
            positions.map { position in
                let vector = items[Int(position)].place.coordinate.map(ChordTest.unitVector) ?? (x: 0, y: 0, z: 0)
                return Slot(x: vector.x, y: vector.y, z: vector.z, rank: rank[Int(position)], position: position)
            }
        }
        func pairs(_ positions: [Int32]) -> [UInt8] {
            positions.map { UInt8(SubsetKey.combo(status: items[Int($0)].status, species: items[Int($0)].species)) }
        }
        self.cellKeys = cellKeys
        self.starts = starts
        newest = slots(byNewest, rank: newestRank)
        oldest = slots(byOldest, rank: oldestRank)
        newestPairs = pairs(byNewest)
        oldestPairs = pairs(byOldest)
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

    /// Calls `body` with each occupied cell (and its slots in `newest` and `oldest`) that meets the
    /// bounding box of the circle of `km` around `origin`, in (row, column) order. Returns false,
    /// having called nothing, where the box is not a simple rectangle (`box(near:withinKm:)`): the
    /// caller must look another way.
    func forEachCell(near origin: Coordinate, withinKm km: Double, _ body: (GridCell, Range<Int>) -> Void) -> Bool {
        guard let (low, high) = box(near: origin, withinKm: km) else { return false }
        for row in low.row...high.row {
            let last = CoordinateGrid.key(row: row, column: high.column)
            var index = firstCell(atLeast: CoordinateGrid.key(row: row, column: low.column))
            while index < cellKeys.count, cellKeys[index] <= last {
                let cell = GridCell(row: row, column: cellKeys[index] % 100_000 - 50_000)
                body(cell, Int(starts[index])..<Int(starts[index + 1]))
                index += 1
            }
        }
        return true
    }

    /// Calls `body` with every item whose cell meets the bounding box of the circle of `km` around
    /// `origin` (a superset of the items within range; the caller tests the distance). Near a pole
    /// or across the antimeridian it visits every item: correct, and rare.
    func forEachCandidate(near origin: Coordinate, withinKm km: Double, _ body: (Int32) -> Void) {
        let simple = forEachCell(near: origin, withinKm: km) { _, slots in
            for slot in slots { body(newest[slot].position) }
        }
        guard !simple else { return }
        for slot in newest { body(slot.position) }
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
}
