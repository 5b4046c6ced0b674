import Foundation
import PetDomain
import Synchronization

/// Announcement cards rendered once per snapshot and kept as HTML fragments (issue 11 "fast cold
/// render"): a card looks the same to every visitor except for two things, the location carried by
/// its details link and the distance line. A located card is rendered once with markers in those
/// two places and kept without them, with the two places noted; a visitor's card is that text
/// with their own (escaped) values put back. The markup still comes from
/// `Templates/partials/card.mustache` alone. Cards are kept by the item's position in the
/// snapshot, in arrays sized once.
final class CardFragments: Sendable {
    /// A located card: its bytes without the per-visitor values, and where each goes.
    struct Located: Sendable {
        let bytes: [UInt8]
        /// Offset in `bytes` where the details link's query goes.
        let linkAt: Int
        /// Offset in `bytes` where the distance text goes; nil for an item without coordinates.
        let distanceAt: Int?
    }

    /// Private-use characters as markers: they pass HTML escaping unchanged.
    private static let linkMarker = "\u{E000}"
    private static let distanceMarker = "\u{E001}"

    private struct Kept {
        var plain: [[UInt8]?]
        var located: [Located?]
    }

    /// The snapshot generation these cards belong to.
    let generation: Int
    private let kept: Mutex<Kept>

    /// Room for the cards of a snapshot of `count` items.
    init(generation: Int, count: Int) {
        self.generation = generation
        kept = Mutex(Kept(plain: Array(repeating: nil, count: count), located: Array(repeating: nil, count: count)))
    }

    /// The cards of `page` for a visitor without a location. One lock to find the kept cards and
    /// one to keep the new ones, whatever the number of cards (threads meet here on every page).
    func plainCards(_ page: IndexPage, render: (CardModel) -> [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]?] = kept.withLock { kept in page.positions.map { kept.plain[$0] } }
        var made: [(Int, [UInt8])] = []
        for (index, position) in page.positions.enumerated() where found[index] == nil {
            let bytes = render(page.all[position].card(origin: nil, location: .unknown))
            found[index] = bytes
            made.append((position, bytes))
        }
        if !made.isEmpty { kept.withLock { kept in for (position, bytes) in made { kept.plain[position] = bytes } } }
        return found.map { $0 ?? [] }
    }

    /// The cards of `page` for a located visitor: `linkQuery` is the query of the details links
    /// (`?lat=…&lng=…`), `distances` the distance text of each card (nil without coordinates).
    func locatedCards(_ page: IndexPage, linkQuery: String, distances: [String?], render: (CardModel) -> [UInt8]) -> [[UInt8]] {
        var found: [Located?] = kept.withLock { kept in page.positions.map { kept.located[$0] } }
        var made: [(Int, Located)] = []
        for (index, position) in page.positions.enumerated() where found[index] == nil {
            let item = page.all[position]
            // Nil only when the item's own text holds a marker character (never in real data):
            // that card is rendered whole below, each time.
            guard let located = CardFragments.split(render(CardFragments.markedCard(item)), hasDistance: item.place.coordinate != nil) else { continue }
            found[index] = located
            made.append((position, located))
        }
        if !made.isEmpty { kept.withLock { kept in for (position, located) in made { kept.located[position] = located } } }
        var escapedQuery: [UInt8] = []
        HTMLText.escape(linkQuery, into: &escapedQuery)
        return page.positions.indices.map { index in
            guard let card = found[index] else {
                // The item's own text held a marker character: render this card whole.
                var model = page.all[page.positions[index]].card(origin: nil, location: .unknown)
                model.detailURL += linkQuery
                model.distanceText = distances[index]
                return render(model)
            }
            var output: [UInt8] = []
            output.reserveCapacity(card.bytes.count + escapedQuery.count + 32)
            var inserts: [(Int, [UInt8])] = [(card.linkAt, escapedQuery)]
            if let at = card.distanceAt {
                var text: [UInt8] = []
                HTMLText.escape(distances[index] ?? "", into: &text)
                inserts.append((at, text))
                if at < card.linkAt { inserts.swapAt(0, 1) }
            }
            var from = 0
            for (at, value) in inserts {
                output += card.bytes[from..<at]
                output += value
                from = at
            }
            output += card.bytes[from...]
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

    /// The card without its markers and where they were; nil unless each expected marker occurs exactly once.
    static func split(_ bytes: [UInt8], hasDistance: Bool) -> Located? {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var linkAt: [Int] = []
        var distanceAt: [Int] = []
        var index = 0
        while index < bytes.count {
            // The markers are EE 80 80 and EE 80 81 in UTF-8.
            if index + 2 < bytes.count, bytes[index] == 0xEE, bytes[index + 1] == 0x80, bytes[index + 2] == 0x80 || bytes[index + 2] == 0x81 {
                if bytes[index + 2] == 0x80 { linkAt.append(kept.count) } else { distanceAt.append(kept.count) }
                index += 3
            } else {
                kept.append(bytes[index])
                index += 1
            }
        }
        guard linkAt.count == 1, distanceAt.count == (hasDistance ? 1 : 0) else { return nil }
        return Located(bytes: kept, linkAt: linkAt[0], distanceAt: distanceAt.first)
    }
}
