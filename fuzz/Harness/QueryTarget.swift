import Foundation
import PetDomain

@testable import MicroHTTP
@testable import WebApp

/// The visitor's query string as the server reads it (split at `&` and the first `=`, then
/// `PercentDecoding`), through `VisitorLocation.parse` and `ListFilters.parse`: accepted values
/// are in range, and the list link printed from them reads back to the same location and filters.
enum QueryTarget {
    static let defaultRangeKm = 25

    static func run(_ bytes: [UInt8]) {
        guard let query = items(ofQuery: text(bytes)) else { return }
        guard let location = try? VisitorLocation.parse(query, defaultRangeKm: defaultRangeKm) else { return }
        check(location)
        guard let filters = try? ListFilters.parse(query, located: location.origin != nil) else { return }
        expect((1...100_000).contains(filters.page), "page out of range: \(filters.page)")

        // The link carries the location (never `location=denied`) and the filters.
        let link = filters.url(page: filters.page, location: location)
        expect(link.hasPrefix(Route.list.path), "list link outside /pets: \(link)")
        let linkQuery = link.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        guard let readBack = items(ofQuery: linkQuery) else {
            fatalError("invariant broken: list link does not percent-decode: \(link)")
        }
        let linkLocation: VisitorLocation
        let linkFilters: ListFilters
        do {
            linkLocation = try VisitorLocation.parse(readBack, defaultRangeKm: defaultRangeKm)
            linkFilters = try ListFilters.parse(readBack, located: linkLocation.origin != nil)
        } catch {
            fatalError("invariant broken: list link \(link) is a bad request: \(error)")
        }
        var expected = location
        if expected.origin == nil { expected = .unknown }
        expect(linkLocation == expected, "list link \(link) reads back as \(linkLocation), not \(expected)")
        expect(linkFilters == filters, "list link \(link) reads back as \(linkFilters), not \(filters)")
    }

    /// What a parsed location promises the pages.
    static func check(_ location: VisitorLocation) {
        if let origin = location.origin {
            expect((-90...90).contains(origin.latitude) && (-180...180).contains(origin.longitude), "origin out of range: \(origin)")
            expect(location.coordinateText != nil, "origin without coordinate text")
            expect(!location.denied, "located and denied at once")
            let range = location.rangeKm ?? 0
            expect((1...VisitorLocation.maxRangeKm).contains(range), "range out of bounds: \(range)")
        } else {
            expect(location.coordinateText == nil && location.rangeKm == nil, "coordinate text or range without an origin")
        }
    }

    /// `a=1&b=2` as decoded items, like the server's request (nil when it would answer 400).
    static func items(ofQuery query: String) -> QueryItems? {
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(String(halves[0])),
                let value = PercentDecoding.decode(halves.count > 1 ? String(halves[1]) : "")
            else { return nil }
            items.append((name: name, value: value))
        }
        return QueryItems(items)
    }
}
