import Foundation
import Synchronization

/// The populated place nearest a coordinate, with how far it is (docs/place-names.md).
public struct NearestPlace: Sendable, Hashable {
    /// The place's own name: "Krzyki", "Burzenin".
    public let name: String
    /// The city a district belongs to ("Wrocław" for Krzyki); nil when there is none.
    public let area: String?
    /// Great-circle distance from the coordinate to the place's point.
    public let distanceKm: Double

    /// Creates a found place.
    public init(name: String, area: String?, distanceKm: Double) {
        self.name = name
        self.area = area
        self.distanceKm = distanceKm
    }

    /// "Krzyki, Wrocław" or "Burzenin": the place, then its city when it has one.
    public var label: String { area.map { name + ", " + $0 } ?? name }

    /// Beyond this distance a place is "about N km from" it, within it the place itself (the issue's 2 km).
    public static let nearbyKm = 2.0
    /// True when the coordinate is in (or next to) the place, so the label alone describes it.
    public var isAtPlace: Bool { distanceKm <= NearestPlace.nearbyKm }
    /// Whole kilometres for "about 4 km from …", at least 2.
    public var roundedKm: Int { max(2, Int(distanceKm.rounded())) }
}

/// Nearest-place lookups over GeoNames places (`Data/places.tsv`, made by
/// `scripts/geonames/make-places.py`), bucketed in a grid of `cellDegrees` cells so a lookup looks at
/// the few cells within `maxKm` of the point instead of 155,000 places. Built once at startup;
/// immutable, so any number of threads may look up at once.
public final class PlaceFinder: Sendable {
    /// Cell size in degrees (about 28 km north–south).
    static let cellDegrees = 0.25
    static let rows = Int(180 / cellDegrees), columns = Int(360 / cellDegrees)
    /// Farther than this from every place, a coordinate has no place name (open sea, wilderness).
    public static let maxKm = 25.0

    /// Places in cell order: coordinates in 10⁻⁴ degrees, names, and areas (indexes into `areaNames`).
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    private let names: [String]
    private let areas: [Int32]
    private let areaNames: [String]
    /// Places of cell `row * columns + column`: `starts[cell]..<starts[cell + 1]`.
    private let starts: [Int32]
    /// Folded name → places, made on the first look-up by name (`PlaceFinder+Names.swift`).
    let namesByFold = Mutex<[String: [Int32]]?>(nil)

    /// A line of the data file that is not `lat TAB lng TAB name TAB area`.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        /// 1-based line number.
        public let line: Int

        /// The error of line `line`.
        public init(line: Int) { self.line = line }
        public var description: String { "line \(line) is not 'latitude, longitude, name, area' (tab-separated)" }
    }

    /// Reads the data file's text: `#` lines are comments, every other line one place.
    public init(tsv text: String) throws(FormatError) {
        var parsed: [(cell: Int, lat: Int32, lng: Int32, name: Substring, area: Substring)] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let lat = Int32(fields[0]), let lng = Int32(fields[1]), abs(lat) <= 900_000, abs(lng) <= 1_800_000,
                !fields[2].isEmpty
            else { throw FormatError(line: lineNumber) }
            let cell = PlaceFinder.cell(row: PlaceFinder.row(Double(lat) / 10_000), column: PlaceFinder.column(Double(lng) / 10_000))
            parsed.append((cell, lat, lng, fields[2], fields[3]))
        }
        parsed.sort { $0.cell < $1.cell }
        var areaIndex: [Substring: Int32] = [:]
        var areaNames: [String] = []
        var starts = [Int32](repeating: 0, count: PlaceFinder.rows * PlaceFinder.columns + 1)
        for place in parsed { starts[place.cell + 1] += 1 }
        for cell in 0..<(starts.count - 1) { starts[cell + 1] += starts[cell] }
        latitudes = parsed.map(\.lat)
        longitudes = parsed.map(\.lng)
        names = parsed.map { String($0.name) }
        areas = parsed.map { place in
            guard !place.area.isEmpty else { return -1 }
            if let index = areaIndex[place.area] { return index }
            areaNames.append(String(place.area))
            areaIndex[place.area] = Int32(areaNames.count - 1)
            return Int32(areaNames.count - 1)
        }
        self.areaNames = areaNames
        self.starts = starts
    }

    /// Number of places.
    public var count: Int { names.count }

    /// The place at `index` (in cell order): its point, name and city.
    func coordinate(at index: Int) -> Coordinate? {
        Coordinate(latitude: Double(latitudes[index]) / 10_000, longitude: Double(longitudes[index]) / 10_000)
    }
    func placeName(at index: Int) -> String { names[index] }
    func areaName(at index: Int) -> String? { areas[index] < 0 ? nil : areaNames[Int(areas[index])] }

    /// The place nearest `point` within `maxKm`; nil when there is none that close.
    public func nearest(to point: Coordinate, maxKm: Double = PlaceFinder.maxKm) -> NearestPlace? {
        // The cells that meet the box around the circle of `maxKm`; across the antimeridian the
        // columns wrap, and near a pole (where a box in longitude degrees is meaningless) every column counts.
        let latSpan = maxKm / 110.5 * 1.01
        let lowRow = PlaceFinder.row(max(-90, point.latitude - latSpan))
        let highRow = PlaceFinder.row(min(90, point.latitude + latSpan))
        let widest = min(89.9, max(abs(point.latitude - latSpan), abs(point.latitude + latSpan)))
        let lngSpan = maxKm / (111.32 * cos(widest * .pi / 180)) * 1.01
        let columnRange: ClosedRange<Int>
        if lngSpan >= 180 || point.latitude + latSpan >= 90 || point.latitude - latSpan <= -90 {
            columnRange = 0...(PlaceFinder.columns - 1)
        } else {
            let west = Int(((point.longitude - lngSpan) / PlaceFinder.cellDegrees).rounded(.down))
            columnRange = west...Int(((point.longitude + lngSpan) / PlaceFinder.cellDegrees).rounded(.down))
        }
        var best = -1
        var bestKm = maxKm
        for row in lowRow...highRow {
            for rawColumn in columnRange {
                // Column of longitude -180 is 0: wrap columns west of it and east of 180°.
                let column = ((rawColumn + PlaceFinder.columns / 2) % PlaceFinder.columns + PlaceFinder.columns) % PlaceFinder.columns
                let cell = PlaceFinder.cell(row: row, column: column)
                for index in Int(starts[cell])..<Int(starts[cell + 1]) {
                    guard let place = Coordinate(latitude: Double(latitudes[index]) / 10_000, longitude: Double(longitudes[index]) / 10_000)
                    else { continue }
                    let km = point.distanceKm(to: place)
                    if km <= bestKm { (best, bestKm) = (index, km) }
                }
            }
        }
        guard best >= 0 else { return nil }
        return NearestPlace(name: names[best], area: areas[best] < 0 ? nil : areaNames[Int(areas[best])], distanceKm: bestKm)
    }

    private static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
    }

    /// The column of a longitude in -180...180 (180 itself is column 0's west edge, the same meridian).
    private static func column(_ longitude: Double) -> Int {
        Int(((longitude + 180) / cellDegrees).rounded(.down)) % columns
    }

    private static func cell(row: Int, column: Int) -> Int { row * columns + column }
}
