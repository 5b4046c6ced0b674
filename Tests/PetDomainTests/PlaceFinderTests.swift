import Foundation
import PetDomain
import Testing

/// docs/place-names.md: nearest populated place from the committed GeoNames extract, and the grid
/// lookup at its hard edges (the antimeridian, the poles, open sea).
@Suite struct PlaceFinderTests {
    /// The committed data, parsed once for the suite.
    static let committed: PlaceFinder? = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/places.tsv")
        return (try? String(contentsOf: file, encoding: .utf8)).flatMap { try? PlaceFinder(tsv: $0) }
    }()

    static func point(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try #require(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test func a_point_in_krzyki_is_krzyki_in_wroclaw() throws {
        let places = try #require(Self.committed)
        let found = try #require(places.nearest(to: try Self.point(51.0725, 16.9960)))
        #expect(found.label == "Krzyki, Wrocław")
        #expect(found.isAtPlace)
        #expect(Format.placeName(found) == "Krzyki, Wrocław")
    }

    @Test func warsaw_is_named_in_polish_and_its_districts_after_it() throws {
        let places = try #require(Self.committed)
        #expect(places.nearest(to: try Self.point(52.2297, 21.0122))?.label == "Warszawa")
        #expect(places.nearest(to: try Self.point(52.1934, 21.0349))?.label == "Mokotów, Warszawa")
    }

    @Test func four_km_from_a_village_is_about_four_km_from_it() throws {
        let places = try #require(Self.committed)
        let found = try #require(places.nearest(to: try Self.point(51.4968, 18.8323)))
        #expect(found.name == "Burzenin")
        #expect(found.area == nil)
        #expect(!found.isAtPlace)
        #expect(found.roundedKm == 4)
        #expect(Format.placeName(found) == "about 4 km from Burzenin")
    }

    @Test func open_sea_and_the_poles_have_no_place() throws {
        let places = try #require(Self.committed)
        #expect(places.nearest(to: try Self.point(40, -40)) == nil)  // mid-Atlantic
        #expect(places.nearest(to: try Self.point(55.3, 18.2)) == nil)  // the Baltic, 52 km off the coast
        #expect(places.nearest(to: try Self.point(90, 0)) == nil)
        #expect(places.nearest(to: try Self.point(-90, 0)) == nil)
        #expect(places.nearest(to: try Self.point(78.22, 15.64))?.name == "Longyearbyen")
    }

    @Test func a_place_across_the_antimeridian_is_found() throws {
        let places = try PlaceFinder(tsv: "# test\n650000\t1799500\tEast Cape\t\n-160000\t-1799900\tWest Isle\t\n")
        let east = try #require(places.nearest(to: try Self.point(65.0, -179.95)))
        #expect(east.name == "East Cape")
        #expect(east.distanceKm < 5)
        #expect(places.nearest(to: try Self.point(-16.0, 179.99))?.name == "West Isle")
        #expect(places.nearest(to: try Self.point(-16.0, 180))?.name == "West Isle")
    }

    @Test func a_place_beyond_the_pole_is_found() throws {
        // 0.05° from the North Pole on one side, the point 0.01° from it on the other: 6.7 km apart.
        let places = try PlaceFinder(tsv: "899500\t1000000\tPolar Camp\t\n-899000\t0\tSouth Camp\t\n")
        #expect(places.nearest(to: try Self.point(89.99, -80))?.name == "Polar Camp")
        #expect(places.nearest(to: try Self.point(-89.95, 120))?.name == "South Camp")
    }

    @Test func the_grid_gives_the_same_place_as_a_scan_of_every_place() throws {
        let text = (0..<2_000).map { index -> String in
            // A fixed spread over Poland and its neighbours (no randomness: the same every run).
            let lat = 480_000 + (index * 7_919) % 80_000
            let lng = 120_000 + (index * 104_729) % 140_000
            return "\(lat)\t\(lng)\tP\(index)\t"
        }.joined(separator: "\n")
        let places = try PlaceFinder(tsv: text)
        let all = text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            return (Coordinate(latitude: Double(fields[0])! / 10_000, longitude: Double(fields[1])! / 10_000)!, String(fields[2]))
        }
        for index in 0..<300 {
            let point = try Self.point(47.5 + Double(index * 37 % 90) / 10, 11.5 + Double(index * 53 % 150) / 10)
            let scan = all.map { ($0.1, point.distanceKm(to: $0.0)) }.filter { $0.1 <= PlaceFinder.maxKm }.min { $0.1 < $1.1 }
            let found = places.nearest(to: point)
            #expect(found?.distanceKm == scan?.1, "\(point)")
        }
    }

    @Test func a_malformed_line_names_its_number() {
        #expect(throws: PlaceFinder.FormatError(line: 2)) { try PlaceFinder(tsv: "# header\n1\t2\n") }
        #expect(throws: PlaceFinder.FormatError(line: 1)) { try PlaceFinder(tsv: "950000\t0\tToo far north\t\n") }
    }
}
