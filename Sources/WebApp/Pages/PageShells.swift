import Foundation
import Synchronization

/// Located pages rendered once per shape and kept as pieces, so a cold located page renders fast: two
/// visitors at different places see the same list page except for their coordinates in links, the
/// result count and the cards. A page is rendered once with markers in those places; a visitor's
/// page is the pieces joined around their own values. The markup still comes from the templates
/// alone, and the shells hold no upstream text (cards are slots), so a marker cannot come from data.
final class PageShells: Sendable {
    /// What a slot holds.
    enum Slot {
        static let latitude = 0
        static let longitude = 1
        /// "12 pets within 15 km of you".
        static let summary = 2
        /// "Page 1 of 3".
        static let pageSummary = 3
        /// The first card; card `n` is `firstCard + n`.
        static let firstCard = 4
        /// One past the last slot number.
        static let count = 40
    }

    /// Pieces of a shell: `literals.count == slots.count + 1`.
    struct Pieces: Sendable {
        let literals: [[UInt8]]
        let slots: [Int]
        var size: Int { literals.reduce(0) { $0 + $1.count } }
    }

    /// `zzS07zz`: letters and digits, so it survives both URL encoding and HTML escaping.
    static func marker(_ slot: Int) -> String {
        "zzS" + (slot < 10 ? "0" : "") + String(slot) + "zz"
    }

    /// A card that renders as the marker of card slot `index`.
    static func markerCard(_ index: Int) -> RenderedCard {
        RenderedCard(html: Array(marker(Slot.firstCard + index).utf8))
    }

    /// Shells in shards by key, each with an equal share of the budget: every located page looks
    /// up here (and moves its shell up the recency list).
    private static let shardCount = 8
    private let shards: Shards<LRUByteCache<String, Pieces>>

    /// Keeps shells up to `maxBytes`.
    init(maxBytes: Int) {
        shards = Shards(count: PageShells.shardCount) { LRUByteCache(maxBytes: maxBytes / PageShells.shardCount) }
    }

    /// The page for shell `key`: the kept shell (or `render`'s, split at its markers and kept)
    /// with each slot's HTML-ready value written in by `write(slot, &output)`; `valueBytes` is a
    /// hint of the values' total size.
    func page(key: String, render: () -> [UInt8], valueBytes: Int, write: (_ slot: Int, _ output: inout [UInt8]) -> Void) -> [UInt8] {
        let hash = Shards<LRUByteCache<String, Pieces>>.hash(key)
        let pieces: Pieces
        if let hit = shards.withLock(hash, { $0.value(for: key, generation: 0) }) {
            pieces = hit
        } else {
            pieces = PageShells.split(render())
            shards.withLock(hash) { $0.insert(pieces, for: key, cost: pieces.size + key.utf8.count + 256, generation: 0) }
        }
        var output: [UInt8] = []
        output.reserveCapacity(pieces.size + valueBytes + valueBytes / 4 + 256)
        output += pieces.literals[0]
        for (index, slot) in pieces.slots.enumerated() {
            write(slot, &output)
            output += pieces.literals[index + 1]
        }
        return output
    }

    /// Splits rendered bytes at every `zzSNNzz` marker.
    static func split(_ bytes: [UInt8]) -> Pieces {
        let z = UInt8(ascii: "z"), s = UInt8(ascii: "S"), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        var literals: [[UInt8]] = []
        var slots: [Int] = []
        var start = 0
        var index = 0
        while index + 7 <= bytes.count {
            if bytes[index] == z, bytes[index + 1] == z, bytes[index + 2] == s,
               (zero...nine).contains(bytes[index + 3]), (zero...nine).contains(bytes[index + 4]),
               bytes[index + 5] == z, bytes[index + 6] == z {
                literals.append(Array(bytes[start..<index]))
                slots.append(Int(bytes[index + 3] - zero) * 10 + Int(bytes[index + 4] - zero))
                index += 7
                start = index
            } else {
                index += 1
            }
        }
        literals.append(Array(bytes[start...]))
        return Pieces(literals: literals, slots: slots)
    }
}
