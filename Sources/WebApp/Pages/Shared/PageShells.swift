import Caching
import FastBytes
import Foundation

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

    /// A shell: the page without its markers, and the slots where they were.
    typealias Pieces = SlottedBytes

    /// `zzS07zz`: letters and digits, so it survives both URL encoding and HTML escaping.
    static func marker(_ slot: Int) -> String {
        SlottedBytes.shellMarker(slot)
    }

    /// A card that renders as the marker of card slot `index`.
    static func markerCard(_ index: Int) -> RenderedCard {
        RenderedCard(html: Array(marker(Slot.firstCard + index).utf8))
    }

    /// Shells in shards by key, each with an equal share of the budget: every located page looks
    /// up here (and moves its shell up the recency list).
    private let shells: ShardedByteCache<String, Pieces>

    /// Keeps shells up to `maxBytes`.
    init(maxBytes: Int) {
        shells = ShardedByteCache(maxBytes: maxBytes, shardCount: CacheLimits.pageShellShards)
    }

    /// The page for shell `key`: the kept shell (or `render`'s, split at its markers and kept)
    /// with each slot's HTML-ready value written in by `write(slot, &output)`; `valueBytes` is a
    /// hint of the values' total size.
    func page(key: String, render: () -> [UInt8], valueBytes: Int, write: (_ slot: Int, _ output: inout ByteCursor) -> Void) -> [UInt8] {
        let pieces: Pieces
        if let hit = shells.value(for: key) {
            pieces = hit
        } else {
            pieces = PageShells.split(render())
            shells.insert(pieces, for: key, cost: pieces.size + key.utf8.count + ShardedByteCache<String, Pieces>.entryOverhead)
        }
        return [UInt8].written(capacity: pieces.size + valueBytes + valueBytes / 4 + 256) { output in
            pieces.write(into: &output, write)
        }
    }

    /// Splits rendered bytes at every `zzSNNzz` marker.
    static func split(_ bytes: [UInt8]) -> Pieces {
        SlottedBytes.split(bytes, .shell)
    }
}
