import Foundation

extension AnnouncementIndex {
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
                guard let distance = points[index]?.coordinate.distanceKm(to: origin),
                    AnnouncementQuery.isInRange(distance, rangeKm: rangeKm)
                else { return }
                candidates.append((position, distance))
            }
        } else {
            candidates = newestBySubset[subset].map { ($0, points[Int($0)]?.coordinate.distanceKm(to: origin) ?? .infinity) }
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
