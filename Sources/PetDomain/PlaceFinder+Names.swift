import Foundation
import Synchronization

/// A place found by the name a visitor typed (the sighting form's "where": docs/sightings.md "Where").
public struct NamedPlace: Sendable, Hashable {
    public let coordinate: Coordinate
    public let place: NearestPlace
}

extension PlaceFinder {
    /// The place called `text` ("Krzyki", "krzyki, wroclaw", "Wrocław"): names are compared folded (case
    /// and diacritics ignored, `MatchLexicon.words`); ", area" after the name narrows it to places of that
    /// city. Of several places with the name, the one nearest `near` wins (a sighting is most likely near the
    /// pet's last-seen place), else the first in the data. Nil when no place has the name.
    public func named(_ text: String, near: Coordinate?) -> NamedPlace? {
        let halves = text.split(separator: ",", maxSplits: 1).map { MatchLexicon.words(String($0)).joined(separator: " ") }
        guard let name = halves.first, !name.isEmpty else { return nil }
        let area = halves.count > 1 && !halves[1].isEmpty ? halves[1] : nil
        let candidates = nameIndex()[name] ?? []
        var best: (index: Int, km: Double)?
        for raw in candidates {
            let index = Int(raw)
            if let area, MatchLexicon.words(areaName(at: index) ?? "").joined(separator: " ") != area { continue }
            let km = near.flatMap { origin in coordinate(at: index).map { origin.distanceKm(to: $0) } } ?? 0
            if km < (best?.km ?? .infinity) { best = (index, km) }
        }
        guard let best, let point = coordinate(at: best.index) else { return nil }
        return NamedPlace(coordinate: point, place: NearestPlace(name: placeName(at: best.index), area: areaName(at: best.index), distanceKm: 0))
    }

    /// Folded name → places, made on the first look-up by name (sightings are rare; startup stays as fast as before).
    private func nameIndex() -> [String: [Int32]] {
        namesByFold.withLock { index in
            if let index { return index }
            var made: [String: [Int32]] = [:]
            for position in 0..<count {
                made[MatchLexicon.words(placeName(at: position)).joined(separator: " "), default: []].append(Int32(position))
            }
            index = made
            return made
        }
    }
}
