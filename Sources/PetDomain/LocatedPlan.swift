import FastBytes
import Foundation

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
/// ordered runs of slots its page is drawn from. A cell wholly inside the circle gives its slots of
/// the grid's order untouched (or, under a status or species filter, those that pass it, copied to
/// `kept`); a cell on the edge gives the slots that passed the distance test, still in that order,
/// copied to `kept`.
struct LocatedPlan {
    /// A run: `start..<end` of the grid's order (or of `kept`), and a lower bound on the distance
    /// of every item in it (for nearest).
    struct Run {
        var start: Int
        var end: Int
        var isKept: Bool
        var lowerBoundKm: Double
    }

    let origin: Coordinate
    /// Distances to `origin`, its cosine computed once.
    let distances: DistancesTo
    let rangeKm: Double
    let points: [MeasuredPoint?]
    /// The grid's slots in the query's order (`CoordinateGrid.newest` or `.oldest`).
    let order: [CoordinateGrid.Slot]
    /// The status × species pair of each slot of `order` (`SubsetKey.combo(status:species:)`).
    let pairs: [UInt8]
    /// The pairs the query's filter admits, as a bit set; nil without a filter.
    let combos: Int?
    private(set) var total = 0
    private var runs: [Run] = []
    /// Slots (indices of `order`) of edge items in range.
    private var kept: [Int32] = []
    private var lastCell: GridCell?
    private var lastRow: Int?
    private var rowRadiusKm = 0.0
    private var lowerBoundKm = 0.0
    private var isInside = false
    private let chord: ChordTest
    /// The Haversine terms of the distance to the centres of the current row's cells that depend
    /// only on the row (`classify`): sin²(Δlatitude / 2) and cos(latitude) × cos(origin's latitude).
    private var rowSineSquared = 0.0
    private var rowCosines = 0.0
    private let originCosine: Double

    init(origin: Coordinate, rangeKm: Double, points: [MeasuredPoint?], order: [CoordinateGrid.Slot], pairs: [UInt8], combos: Int?) {
        self.origin = origin
        distances = DistancesTo(origin)
        self.rangeKm = rangeKm
        self.points = points
        self.order = order
        self.pairs = pairs
        self.combos = combos
        chord = ChordTest(origin: origin, rangeKm: rangeKm)
        originCosine = cos(origin.latitude * .pi / 180)
        // Room for a typical query's runs and boundary items at once: growing them one doubling at
        // a time was seven allocations and copies per located page (callgrind).
        runs.reserveCapacity(128)
        kept.reserveCapacity(512)
    }

    /// Adds the items of `cell`, at `slots` of `order`.
    mutating func add(cell: GridCell, slots: Range<Int>) {
        if cell != lastCell { classify(cell) }
        // The bounds carry a millimetre of slack, far above the rounding of the distance formula,
        // so a cell is called inside (or outside) only when every item's computed distance is.
        if lowerBoundKm >= rangeKm { return }
        if isInside, combos == nil {
            total += slots.count
            runs.append(Run(start: slots.lowerBound, end: slots.upperBound, isKept: false, lowerBoundKm: lowerBoundKm))
            return
        }
        let start = kept.count
        let combos = combos ?? -1
        order.withElements { order in
            pairs.withElements { pairs in
                for index in slots where combos & (1 << Int(pairs[index])) != 0 {
                    if isInside {
                        kept.append(Int32(index))
                        continue
                    }
                    let slot = order[index]
                    switch chord.verdict(slot.x, slot.y, slot.z) {
                    case .inside: kept.append(Int32(index))
                    case .outside: continue
                    case .unsure:
                        // The same computation as `Announcement.distanceKm(from:)`, the distance pages show.
                        guard let distance = points[Int(slot.position)].map(distances.km(from:)),
                            AnnouncementQuery.isInRange(distance, rangeKm: rangeKm)
                        else { continue }
                        kept.append(Int32(index))
                    }
                }
            }
        }
        guard kept.count > start else { return }
        total += kept.count - start
        runs.append(Run(start: start, end: kept.count, isKept: true, lowerBoundKm: lowerBoundKm))
    }

    /// Bounds of the distance from the origin to any point of `cell`: the distance to its centre
    /// plus or minus the distance from the centre to its farthest corner (the triangle inequality;
    /// the farthest point of a latitude/longitude rectangle from its centre is a corner).
    ///
    /// The distance to the centre is Haversine with its row's terms computed once per row: a cell
    /// then costs one sine and one arcsine instead of a whole `distanceKm` (callgrind: a tenth of the
    /// index's work). Its rounding may differ from `distanceKm`'s in the last bits, far below the slack.
    private mutating func classify(_ cell: GridCell) {
        lastCell = cell
        let size = CoordinateGrid.cellDegrees
        let toRadians = Double.pi / 180
        let centerLatitude = (Double(cell.row) + 0.5) * size
        let centerLongitude = (Double(cell.column) + 0.5) * size
        if lastRow != cell.row {
            lastRow = cell.row
            let halfLatitude = sin((origin.latitude - centerLatitude) * toRadians / 2)
            rowSineSquared = halfLatitude * halfLatitude
            rowCosines = cos(centerLatitude * toRadians) * originCosine
            let center = Coordinate(latitude: centerLatitude, longitude: centerLongitude) ?? origin
            // A point may land a rounding error outside its cell's rectangle: widen it by 1e-9°.
            let half = size / 2 + 1e-9
            let south = Coordinate(latitude: center.latitude - half, longitude: center.longitude - half)
            let north = Coordinate(latitude: center.latitude + half, longitude: center.longitude - half)
            if let south, let north {
                rowRadiusKm = max(center.distanceKm(to: south), center.distanceKm(to: north))
            } else {
                rowRadiusKm = .infinity
            }
        }
        let halfLongitude = sin((origin.longitude - centerLongitude) * toRadians / 2)
        let haversine = rowSineSquared + rowCosines * halfLongitude * halfLongitude
        let toCenter = 2 * Coordinate.earthRadiusKm * asin(min(1, sqrt(haversine)))
        let slack = 1e-6
        lowerBoundKm = toCenter - rowRadiusKm - slack
        isInside = toCenter + rowRadiusKm + slack < rangeKm
    }

    /// The slot of `order` at `index` of `run`.
    @inline(__always) private func slot(_ run: Run, _ index: Int) -> CoordinateGrid.Slot {
        order[run.isKept ? Int(kept[index]) : index]
    }

    /// The first `wanted` positions in `rank` order: a k-way merge of the runs, each already in that order.
    ///
    /// The heap holds each run's next rank and the run's number packed in one integer, and reads the
    /// slots through pinned views (`ElementView`: one bounds check per read, no array's uniqueness and
    /// retain checks): with tuples and array subscripts the merge was 55,000 instructions of a located
    /// feed (callgrind).
    func firstByRank(_ wanted: Int) -> [Int32] {
        guard wanted > 0, !runs.isEmpty else { return [] }
        return order.withElements { order in
            kept.withElements { kept in
                runs.withElements { runs in
                    LocatedPlan.merge(runs, order: order, kept: kept, wanted: wanted)
                }
            }
        }
    }

    private static func merge(
        _ runs: ElementView<Run>,
        order: ElementView<CoordinateGrid.Slot>,
        kept: ElementView<Int32>,
        wanted: Int
    ) -> [Int32] {
        @inline(__always) func slot(_ run: Run, _ index: Int) -> CoordinateGrid.Slot {
            order[run.isKept ? Int(kept[index]) : index]
        }
        // A min-heap of `rank << 32 | run`: ranks are distinct, so the run never decides an order.
        @inline(__always) func entry(_ rank: Int32, _ run: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: rank)) << 32 | UInt64(run) }
        var cursors = (0..<runs.count).map { runs[$0].start }
        var heap = (0..<runs.count).map { entry(slot(runs[$0], runs[$0].start).rank, $0) }
        var result: [Int32] = []
        result.reserveCapacity(wanted)
        heap.withMutableElements { heap in
            var count = heap.count
            func siftDown(_ from: Int) {
                var parent = from
                let moving = heap[parent]
                while true {
                    let left = 2 * parent + 1
                    guard left < count else { break }
                    let right = left + 1
                    let child = right < count && heap[right] < heap[left] ? right : left
                    guard heap[child] < moving else { break }
                    heap[parent] = heap[child]
                    parent = child
                }
                heap[parent] = moving
            }
            for index in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(index) }
            cursors.withMutableElements { cursors in
                while result.count < wanted, count > 0 {
                    let number = Int(truncatingIfNeeded: heap[0] & 0xFFFF_FFFF)
                    let run = runs[number]
                    let cursor = cursors[number]
                    result.append(slot(run, cursor).position)
                    if cursor + 1 < run.end {
                        cursors[number] = cursor + 1
                        heap[0] = entry(slot(run, cursor + 1).rank, number)
                    } else {
                        count -= 1
                        heap[0] = heap[count]
                    }
                    siftDown(0)
                }
            }
        }
        return result
    }

    /// The `wanted` nearest positions, ties by the order's rank (newest first: a nearest query reads
    /// the newest order): runs closest first, kept in a bounded max-heap, stopping at the first run
    /// whose lower bound is beyond the farthest kept.
    func nearest(_ wanted: Int) -> [Int32] {
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
            for index in run.start..<run.end {
                let item = slot(run, index)
                guard let distance = points[Int(item.position)].map(distances.km(from:)) else { continue }
                let entry: Entry = (distance, item.rank, item.position)
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
