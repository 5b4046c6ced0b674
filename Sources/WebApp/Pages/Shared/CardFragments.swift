import Caching
import CompiledTemplates
import FastBytes
import Foundation
import PetDomain
import Synchronization

/// Announcement cards rendered once per snapshot and kept as HTML fragments, so a cold located
/// page renders fast (docs/scaling.md): a card looks the same to every visitor except for two things, the location carried by
/// its details link and the distance line. A located card is rendered once with markers in those
/// two places and kept without them, with the two places noted; a visitor's card is that text
/// with their own (escaped) values put back. The markup still comes from
/// `Templates/partials/card.mustache` alone. Cards are kept by the item's position in the
/// snapshot, in arrays sized once, per language: plain cards also per whether links
/// carry `lang` (the URL chose the language), located cards get `lang` with the link query.
/// Each is kept as a `CompactFragment`: its values and references to the markup all cards share.
final class CardFragments: Sendable {
    /// A located card: its bytes without the per-visitor values, with a hole (`Slot`) where the
    /// details link's query goes and one where the distance text goes (none for an item without
    /// coordinates).
    typealias Located = SlottedBytes

    /// The slots of a located card's holes.
    enum Slot {
        static let linkQuery = 0
        static let distance = 1
    }

    /// Private-use characters as markers: they pass HTML escaping unchanged.
    static let linkMarker = SlottedBytes.cardMarker(Slot.linkQuery)
    static let distanceMarker = SlottedBytes.cardMarker(Slot.distance)

    /// Plain cards differ by language and by whether their links carry `lang`.
    private static func plainVariant(_ language: PageLanguage) -> Int {
        language.language.index * 2 + (language.explicit ? 1 : 0)
    }

    /// The snapshot generation and day these cards belong to (`DayClock.reuseKey`).
    let generation: Int
    /// The day the cards' report ages are worded for.
    let day: Int
    /// Kept cards by `plainVariant`, then position: read without a lock (`PublishedFragments`).
    private let plain: [PublishedFragments]
    /// Kept located cards by `Language.index`, then position.
    private let located: [PublishedFragments]
    /// The shared markup as it was when a card was last kept, published before the cards that name
    /// it: a page that sees a card reads this after it, so it holds every piece the card names.
    private let publishedMarkup = Mutex(MarkupPieces())
    /// The markup the kept cards share (`CompactFragment`); a successor shares its predecessor's, so the cards it
    /// keeps name the same pieces.
    private let markup: SharedMarkup
    /// Where the kept cards' bytes live (a page holds it while it writes them: `CardSet.owner`); a successor
    /// shares it too, unless most of it belongs to cards no longer shown (`init(succeeding:…)`).
    private let arena: FragmentArena

    /// Room for the cards of a snapshot of `count` items.
    init(generation: Int, day: Int, count: Int) {
        self.generation = generation
        self.day = day
        plain = (0..<Language.allCases.count * 2).map { _ in PublishedFragments(count: count) }
        located = Language.allCases.map { _ in PublishedFragments(count: count) }
        markup = SharedMarkup()
        arena = FragmentArena()
    }

    /// The cards of a new snapshot that kept `old`'s unchanged items: `carried[position]` is the item's position
    /// in `old`'s snapshot (-1 for a new or changed one), whose kept cards of every variant are kept here as they
    /// are, so a refresh that adds one report renders one card, not 50,000 (docs/performance.md "Steady speed").
    /// The bytes stay where they are and the arena is shared, unless less than half of it would still be shown:
    /// then the carried cards are copied into a new one and the old goes with the old snapshot.
    init(succeeding old: CardFragments, generation: Int, day: Int, carried: [Int32]) {
        self.generation = generation
        self.day = day
        let count = carried.count
        plain = (0..<Language.allCases.count * 2).map { _ in PublishedFragments(count: count) }
        located = Language.allCases.map { _ in PublishedFragments(count: count) }
        markup = old.markup
        publishedMarkup.withLock { $0 = old.publishedMarkup.withLock { $0 } }
        let pairs = zip(old.plain + old.located, plain + located).map { (from: $0, to: $1) }
        arena = PublishedFragments.carry(pairs, carried: carried, arena: old.arena)
    }

    /// Makes the located cards not kept yet of every item of `items` (this snapshot's) in `texts`' language, so
    /// the first located pages of a snapshot write kept cards as every later one does instead of rendering
    /// theirs (docs/performance.md "Steady speed": a replica just started, or just given a changed list).
    /// Many cards (a replica's first list) are made on every core: nothing else is asked of them until the list
    /// is in place; a few (a changed list's new items) on the calling thread, the refresh's low-priority one.
    func makeLocated(_ items: [Announcement], texts: Texts, render: @Sendable (CardModel) -> [UInt8]) {
        let slots = located[texts.language.index]
        let missing = items.indices.filter { $0 < slots.count && slots.address(at: $0) == 0 }
        let workers = missing.count < 4_096 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let share = (missing.count + workers - 1) / max(1, workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var pieces = MarkupPieces()
            var made: [(Int, CompactFragment)] = []
            for position in missing.dropFirst(worker * share).prefix(share) {
                guard let card = locatedFragment(items[position], texts: texts, render: render) else { continue }
                made.append((position, card))
                if made.count == 256 {
                    keep(made, &pieces, in: slots)
                    made.removeAll(keepingCapacity: true)
                }
            }
            keep(made, &pieces, in: slots)
        }
    }

    /// Bytes of the arena these cards keep theirs in (tests, `/metrics`).
    var arenaBytes: (reserved: Int, kept: Int) { arena.bytes }

    /// The kept cards of `page`'s positions in `slots` (nil: not made yet), and the shared markup,
    /// read after them (so it holds every piece they name).
    private func lookUp(_ page: IndexPage, _ slots: PublishedFragments) -> ([CompactFragment?], MarkupPieces) {
        let found = page.positions.map { slots.fragment(at: $0) }
        return (found, publishedMarkup.withLock { $0 })
    }

    /// The cards of `page` for a visitor without a location, with `texts` in `language`.
    func plainCards(_ page: IndexPage, language: PageLanguage, texts: Texts, render: (CardModel) -> [UInt8]) -> CardSet {
        let variant = CardFragments.plainVariant(language)
        let (found, seen) = lookUp(page, plain[variant])
        var pieces = seen
        var made: [(Int, CompactFragment)] = []
        var cards: [CardSet.Card] = []
        cards.reserveCapacity(found.count)
        for (index, position) in page.positions.enumerated() {
            if let card = found[index] {
                cards.append(.compact(card))
                continue
            }
            let model = page.all[position].card(origin: nil, location: .unknown(language), texts: texts, day: day)
            let (marked, values) = model.valueMarked()
            let markedBytes = render(marked)
            let card: CompactFragment
            if let trusted = CompactFragment(trusting: markedBytes, values: values, markup: markup) {
                card = trusted
            } else {
                let reference = SlottedBytes(bytes: render(model), holes: [])
                card =
                    CompactFragment(marked: markedBytes, values: values, reference: reference, markup: markup)
                    ?? CompactFragment(plain: reference)
            }
            made.append((position, card))
            cards.append(.compact(card))
        }
        keep(made, &pieces, in: plain[variant])
        return CardSet(cards: cards, markup: pieces, escapedQuery: [], distancesKm: [], texts: texts, owner: arena)
    }

    /// The cards of `page` for a located visitor: `linkQuery` is the query of the details links
    /// (`?lat=…&lng=…`, and `&lang=…` when the URL chose it), `page.distancesKm` each card's
    /// distance (nil without coordinates), `texts` those of the page's language.
    func locatedCards(_ page: IndexPage, linkQuery: String, texts: Texts, render: (CardModel) -> [UInt8]) -> CardSet {
        let language = texts.language.index
        let (found, seen) = lookUp(page, located[language])
        var pieces = seen
        var made: [(Int, CompactFragment)] = []
        var cards: [CardSet.Card] = []
        cards.reserveCapacity(found.count)
        for (index, position) in page.positions.enumerated() {
            if let card = found[index] {
                // Its lines arrive while the page's texts and shell are looked up (`Prefetch`).
                card.prefetchLines()
                cards.append(.compact(card))
                continue
            }
            let item = page.all[position]
            if let card = locatedFragment(item, texts: texts, render: render) {
                made.append((position, card))
                cards.append(.compact(card))
            } else {
                var model = item.card(origin: nil, location: .unknown, texts: texts, day: day)
                model.detailURL += linkQuery
                model.distanceText = page.distancesKm[index].map { texts.distance(km: $0) }
                cards.append(.whole(render(model)))
            }
        }
        keep(made, &pieces, in: located[language])
        var escapedQuery: [UInt8] = []
        HTMLText.escape(linkQuery, into: &escapedQuery)
        return CardSet(cards: cards, markup: pieces, escapedQuery: escapedQuery, distancesKm: page.distancesKm, texts: texts, owner: arena)
    }

    /// The located card of `item` to keep: nil only when the item's own text holds a slot marker character (never
    /// in real data): that card is rendered whole, each time.
    private func locatedFragment(_ item: Announcement, texts: Texts, render: (CardModel) -> [UInt8]) -> CompactFragment? {
        let hasDistance = item.place.coordinate != nil
        var (marked, values) = item.card(origin: nil, location: .unknown, texts: texts, day: day).valueMarked()
        marked.detailURL += CardFragments.linkMarker
        if hasDistance { marked.distanceText = CardFragments.distanceMarker }
        let markedBytes = render(marked)
        if let trusted = CompactFragment(trusting: markedBytes, values: values, markup: markup) { return trusted }
        // The reference: the card with the slots' markers only.
        guard let located = CardFragments.split(render(CardFragments.markedCard(item, texts: texts, day: day)), hasDistance: hasDistance) else {
            return nil
        }
        return CompactFragment(marked: markedBytes, values: values, reference: located, markup: markup) ?? CompactFragment(plain: located)
    }

    /// Keeps the cards just made in `slots`, the markup they name published first; `pieces` becomes
    /// that markup (it holds what every card of the page names).
    private func keep(_ made: [(Int, CompactFragment)], _ pieces: inout MarkupPieces, in slots: PublishedFragments) {
        guard !made.isEmpty else { return }
        let current = markup.pieces
        pieces = current
        publishedMarkup.withLock { published in
            if published.count < current.count { published = current }
        }
        for (position, card) in made {
            slots.publish(card.keptPrefixed(in: arena), at: position)
        }
    }

    /// The card model with markers where the link query and the distance go.
    private static func markedCard(_ item: Announcement, texts: Texts, day: Int) -> CardModel {
        var card = item.card(origin: nil, location: .unknown, texts: texts, day: day)
        card.detailURL += linkMarker
        if item.place.coordinate != nil { card.distanceText = distanceMarker }
        return card
    }

    /// The card without its markers and where they were; nil unless each expected marker occurs exactly once.
    static func split(_ bytes: [UInt8], hasDistance: Bool) -> Located? {
        let located = SlottedBytes.split(bytes, .card)
        guard located.count(of: Slot.linkQuery) == 1, located.count(of: Slot.distance) == (hasDistance ? 1 : 0) else { return nil }
        return located
    }
}

/// The cards of one page for one visitor: kept cards with this visitor's link query and
/// distances put back as they are written, so a located page is written in one pass into its
/// output, without an array per card.
struct CardSet {
    enum Card {
        /// A card's finished HTML.
        case whole([UInt8])
        /// A kept card: shared markup and its values; the visitor's values go in at its slots.
        case compact(CompactFragment)
    }

    let cards: [Card]
    /// The shared markup the kept cards name (`SharedMarkup.pieces`).
    let markup: MarkupPieces
    /// The details links' query, HTML-escaped.
    let escapedQuery: [UInt8]
    /// The distance of each card (nil without coordinates), written in `texts`' words.
    let distancesKm: [Double?]
    let texts: Texts?
    /// Keeps the kept cards' bytes alive while the page is written (`FragmentArena`).
    let owner: FragmentArena?

    /// Cards that are finished HTML each.
    init(whole: [[UInt8]]) {
        cards = whole.map(Card.whole)
        markup = MarkupPieces()
        escapedQuery = []
        distancesKm = []
        texts = nil
        owner = nil
    }

    init(cards: [Card], markup: MarkupPieces, escapedQuery: [UInt8], distancesKm: [Double?], texts: Texts, owner: FragmentArena) {
        self.cards = cards
        self.markup = markup
        self.escapedQuery = escapedQuery
        self.distancesKm = distancesKm
        self.texts = texts
        self.owner = owner
    }

    var count: Int { cards.count }
    var indices: Range<Int> { cards.indices }
    /// Bytes of the cards (a size hint for the page's buffer). Also brings every kept card into
    /// cache at once (`CompactFragment.touchLines`); the sum of what that read adds at most one byte.
    var byteCount: Int {
        var touched: UInt8 = 0
        let total = cards.reduce(0) { total, card in
            switch card {
            case .whole(let bytes): return total + bytes.count
            case .compact(let card):
                touched &+= card.touchLines()
                return total + card.size + escapedQuery.count + 16
            }
        }
        return total + Int(touched >> 7)
    }

    /// Calls `body` with a writer of these cards. The shared markup, the link query and the
    /// distance texts are pinned once for the page, not once per card: each pin retained buffers
    /// that every server thread shares, and under load those reference counts were contended
    /// (docs/performance.md "Located pages").
    func withWriter<T>(_ body: (Writer) -> T) -> T {
        markup.withPieces { pieces in
            escapedQuery.withView { query in
                Texts.withDistanceWriter(texts) { distance in
                    body(Writer(set: self, pieces: pieces, query: query, distance: distance))
                }
            }
        }
    }

    /// Writes the cards of a set with what `withWriter` pinned (valid only inside that call).
    struct Writer {
        let set: CardSet
        let pieces: PinnedPieces
        let query: ByteView
        let distance: Texts.DistanceWriter?

        /// Appends card `index` to `output`.
        func write<Sink: ByteSink>(_ index: Int, into output: inout Sink) {
            switch set.cards[index] {
            case .whole(let bytes):
                output.append(array: bytes)
            case .compact(let card):
                card.write(into: &output, pieces: pieces) { slot, output in
                    if slot == CardFragments.Slot.linkQuery {
                        output.append(bytes: query)
                    } else if let km = set.distancesKm[index], let distance {
                        distance.write(km: km, into: &output)
                    }
                }
            }
        }
    }

    /// Appends card `index` to `output`.
    func write(_ index: Int, into output: inout [UInt8]) {
        withWriter { $0.write(index, into: &output) }
    }

    /// Each card as finished HTML (for pages rendered whole through their template).
    var html: [[UInt8]] {
        indices.map { index in
            var output: [UInt8] = []
            write(index, into: &output)
            return output
        }
    }
}
