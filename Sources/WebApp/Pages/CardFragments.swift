import Foundation
import PetDomain
import Synchronization

/// Announcement cards rendered once per snapshot and kept as HTML fragments (issue 11 "fast cold
/// render"): a card looks the same to every visitor except for two things, the location carried by
/// its details link and the distance line. A located card is rendered once with markers in those
/// two places and kept as pieces; a visitor's card is the pieces joined around their own (escaped)
/// values. The markup still comes from `Templates/partials/card.mustache` alone.
final class CardFragments: Sendable {
    /// A card split where the per-visitor values go.
    struct Pieces: Sendable {
        /// `literals.count == slots.count + 1`; literal, slot, literal, … literal.
        let literals: [[UInt8]]
        let slots: [Slot]
    }

    /// What goes into a slot.
    enum Slot: Sendable {
        /// The location query of the details link, e.g. `?lat=52.2297&amp;lng=21.0122`.
        case linkQuery
        /// The distance text, e.g. `2.3 km away`.
        case distance
    }

    /// Private-use characters as markers: they pass HTML escaping unchanged.
    private static let linkMarker = "\u{E000}"
    private static let distanceMarker = "\u{E001}"
    private static let linkMarkerBytes: [UInt8] = Array(linkMarker.utf8)
    private static let distanceMarkerBytes: [UInt8] = Array(distanceMarker.utf8)

    private struct Kept {
        var plain: [String: [UInt8]] = [:]
        var located: [String: Pieces] = [:]
    }

    /// The snapshot generation these cards belong to.
    let generation: Int
    private let kept = Mutex(Kept())

    init(generation: Int) { self.generation = generation }

    /// The cards of `items` for a visitor without a location. One lock to find the kept cards and
    /// one to keep the new ones, whatever the number of cards (threads meet here on every page).
    func plainCards(_ items: [Announcement], render: (CardModel) -> [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]?] = kept.withLock { kept in items.map { kept.plain[$0.id] } }
        var made: [(String, [UInt8])] = []
        for (index, item) in items.enumerated() where found[index] == nil {
            let bytes = render(item.card(origin: nil, location: .unknown))
            found[index] = bytes
            made.append((item.id, bytes))
        }
        if !made.isEmpty { kept.withLock { kept in for (id, bytes) in made { kept.plain[id] = bytes } } }
        return found.map { $0 ?? [] }
    }

    /// The cards of `items` for a located visitor: `linkQuery` is the query of the details links
    /// (`?lat=…&lng=…`), `distances` the distance text of each item (nil without coordinates).
    func locatedCards(_ items: [Announcement], linkQuery: String, distances: [String?], render: (CardModel) -> [UInt8]) -> [[UInt8]] {
        var found: [Pieces?] = kept.withLock { kept in items.map { kept.located[$0.id] } }
        var made: [(String, Pieces)] = []
        for (index, item) in items.enumerated() where found[index] == nil {
            let pieces = CardFragments.split(render(CardFragments.markedCard(item)), hasDistance: item.place.coordinate != nil)
                ?? Pieces(literals: [], slots: [])
            found[index] = pieces
            made.append((item.id, pieces))
        }
        if !made.isEmpty { kept.withLock { kept in for (id, pieces) in made { kept.located[id] = pieces } } }
        var escapedQuery: [UInt8] = []
        HTMLText.escape(linkQuery, into: &escapedQuery)
        return items.indices.map { index in
            guard let pieces = found[index], !pieces.literals.isEmpty else {
                // The item's own text held a marker character: render this card whole, every time.
                return render(CardFragments.cardModel(items[index], linkQuery: linkQuery, distance: distances[index]))
            }
            var output = pieces.literals[0]
            output.reserveCapacity(pieces.literals.reduce(64) { $0 + $1.count })
            for (slotIndex, slot) in pieces.slots.enumerated() {
                switch slot {
                case .linkQuery: output += escapedQuery
                case .distance: HTMLText.escape(distances[index] ?? "", into: &output)
                }
                output += pieces.literals[slotIndex + 1]
            }
            return output
        }
    }

    /// The card model with markers where the link query and the distance go.
    private static func markedCard(_ item: Announcement) -> CardModel {
        var card = item.card(origin: nil, location: .unknown)
        card.detailURL += linkMarker
        if item.place.coordinate != nil { card.distanceText = distanceMarker }
        return card
    }

    /// The card model with real values, for the rare card that cannot be split.
    private static func cardModel(_ item: Announcement, linkQuery: String, distance: String?) -> CardModel {
        var card = item.card(origin: nil, location: .unknown)
        card.detailURL += linkQuery
        card.distanceText = distance
        return card
    }

    /// Splits rendered card bytes at the markers; nil unless each expected marker occurs exactly once.
    static func split(_ bytes: [UInt8], hasDistance: Bool) -> Pieces? {
        var literals: [[UInt8]] = []
        var slots: [Slot] = []
        var start = 0
        var index = 0
        while index + 2 < bytes.count {
            // Both markers are EE 80 80 / EE 80 81 in UTF-8.
            if bytes[index] == 0xEE, bytes[index + 1] == 0x80, bytes[index + 2] == 0x80 || bytes[index + 2] == 0x81 {
                literals.append(Array(bytes[start..<index]))
                slots.append(bytes[index + 2] == 0x80 ? .linkQuery : .distance)
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        literals.append(Array(bytes[start...]))
        let links = slots.filter { if case .linkQuery = $0 { true } else { false } }.count
        guard links == 1, slots.count - links == (hasDistance ? 1 : 0) else { return nil }
        return Pieces(literals: literals, slots: slots)
    }
}
