import Foundation

#if !STANDALONE
import PetDomain
#endif

// Place names (docs/place-names.md): loading the GeoNames extract, one nearest-place lookup, and the
// snapshot's item work (index, plus naming every item) at 5,000 and 50,000 items, without and with
// names. Also compiled alone with PetDomain's sources (`-D STANDALONE`, see docs/place-names.md),
// which needs no release build of the whole package.

/// Prints the place-name rows; `body` makes a dialect-A list body of `count` items.
func measurePlaceNames(placesFile: String, body: (Int) -> Data, cpuMilliseconds: () -> Double) {
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    guard let text = try? String(contentsOfFile: placesFile, encoding: .utf8) else {
        print("places: cannot read \(placesFile)")
        return
    }
    var loads: [Double] = []
    var finder: PlaceFinder?
    for _ in 0..<5 {
        let start = cpuMilliseconds()
        finder = try? PlaceFinder(tsv: text)
        loads.append(cpuMilliseconds() - start)
    }
    guard let finder else { return print("places: malformed \(placesFile)") }
    print(String(format: "places: load %d places: cpu median %.1f ms", finder.count, median(loads)))

    // Lookups over Poland and its neighbours, and over the whole world (mostly sea: nothing within 25 km).
    var seed: UInt64 = 99
    func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
    let poland = (0..<200_000).compactMap { _ in Coordinate(latitude: 48 + next() * 8, longitude: 12 + next() * 14) }
    let world = (0..<200_000).compactMap { _ in Coordinate(latitude: -90 + next() * 180, longitude: -180 + next() * 360) }
    for (name, points) in [("Poland and neighbours", poland), ("whole world", world)] {
        var found = 0
        let start = cpuMilliseconds()
        for point in points where finder.nearest(to: point) != nil { found += 1 }
        let elapsed = cpuMilliseconds() - start
        print(
            String(
                format: "places: lookup, %@: %.2f µs per lookup (%d of %d named)",
                name as NSString,
                elapsed * 1000 / Double(points.count),
                found,
                points.count
            )
        )
    }

    for count in [5_000, 50_000] {
        guard let items = try? AnnouncementDecoder.decodeList(body(count)).items else { continue }
        var plain: [Double] = []
        var named: [Double] = []
        for _ in 0..<5 {
            var start = cpuMilliseconds()
            _ = AnnouncementIndex(items: items)
            plain.append(cpuMilliseconds() - start)
            start = cpuMilliseconds()
            _ = AnnouncementIndex(items: items.map { $0.withNearestPlace(finder) })
            named.append(cpuMilliseconds() - start)
        }
        print(
            String(
                format: "places: snapshot of %d items: index %.1f ms, index + place names %.1f ms (cpu medians)",
                count,
                median(plain),
                median(named)
            )
        )
    }
}
