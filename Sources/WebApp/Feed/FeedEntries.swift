import Caching
import CompiledTemplates
import FastBytes
import Foundation
import MicroHTTP
import PetAPIClient
import PetDomain
import Synchronization

/// The Atom `<entry>` of each announcement of the snapshot, written once per snapshot generation
/// and language (docs/style.md "Precompute per data change"): a feed request only picks entries and
/// writes the searcher's distance into each summary, so a feed for a new location costs about
/// what a list page does. Written when first asked for (an entry that no feed's newest 50 reach is
/// never written), so memory follows what is read, not the size of the snapshot.
final class FeedEntries: Sendable {
    /// One entry's XML, with a slot (0) where the search's distance goes (the end of its summary),
    /// kept as its values and markup shared by the entries of its generation (`CompactFragment`).
    struct Fragment: Sendable {
        let entry: CompactFragment
        /// `EntityTag.hash` of the entry's bytes with its slot empty: a feed's tag folds these
        /// (`EntityTag.Composite`) instead of hashing its whole body per request (perf: 3 % of a
        /// located feed).
        let hash: UInt64

        /// This entry with its bytes in `arena` (`FragmentArena`).
        func kept(in arena: FragmentArena) -> Fragment { Fragment(entry: entry.kept(in: arena), hash: hash) }

        /// This entry kept in `arena` as one address to publish (`PublishedFragments`), its hash with it.
        func keptPrefixed(in arena: FragmentArena) -> Int { entry.keptPrefixed(in: arena, tag: Int64(truncatingIfNeeded: hash)) }

        /// The entry `keptPrefixed(in:)` kept at `address`.
        init(prefixedAt address: Int) {
            self.init(entry: CompactFragment(prefixedAt: address), hash: UInt64(truncatingIfNeeded: FragmentArena.prefixed(at: address).tag))
        }

        private init(entry: CompactFragment, hash: UInt64) {
            self.entry = entry
            self.hash = hash
        }

        /// The entry of `values`, its markup kept once in `markup`; `itemPart` is the item's id as
        /// its links spell it (a value of the entry: the rest of each link is shared markup).
        init(_ values: Values, itemPart: String, markup: SharedMarkup) {
            var recorder = Recorder()
            FeedEntries.write(values, itemPart: itemPart, into: &recorder)
            entry = CompactFragment(recorded: recorder.recorder, markup: markup)
            hash = EntityTag.hash(recorder.bytes)
        }
    }

    /// A text of an entry, and whether it is the same in many entries (shared markup of a kept one).
    struct Text {
        var text: String
        var isShared: Bool

        init(_ text: String, isShared: Bool) {
            self.text = text
            self.isShared = isShared
        }
    }

    /// The texts of one entry.
    struct Values {
        var id: String
        var title: String
        var link: String
        var photo: String?
        var created: String
        /// Its parts, in order (`FeedSearch.summaryParts`).
        var summary: [Text]
        /// "lat lng", nil without coordinates.
        var point: String?
    }

    /// The entry's XML up to where the distance goes (`before`) and after it.
    static func write(_ values: Values, before: inout [UInt8], after: inout [UInt8]) {
        var sink = Plain()
        write(values, itemPart: "", into: &sink)
        before = sink.before
        after = sink.after
    }

    /// Writes the entry of `values` into `sink`: the one description of an entry's XML, which a
    /// kept entry (`Recorder`) and the plain bytes (`Plain`) both follow.
    /// No phone number, e-mail or contact name: feeds are harvested (docs/feeds.md "Privacy").
    static func write<Sink: EntrySink>(_ values: Values, itemPart: String, into sink: inout Sink) {
        sink.markup("<entry>\n<id>")
        sink.text(values.id, part: itemPart)
        sink.markup("</id>\n<title>")
        sink.value(values.title)
        sink.markup("</title>\n<link rel=\"alternate\" type=\"text/html\" href=\"")
        sink.text(values.link, part: itemPart)
        sink.markup("\"/>\n")
        if let photo = values.photo {
            sink.markup("<link rel=\"enclosure\" href=\"")
            sink.text(photo, part: itemPart)
            sink.markup("\"/>\n")
        }
        sink.markup("<published>")
        sink.value(values.created)
        sink.markup("</published>\n<updated>")
        sink.value(values.created)
        sink.markup("</updated>\n<summary>")
        for part in values.summary {
            part.isShared ? sink.shared(part.text) : sink.value(part.text)
        }
        sink.slot()
        sink.markup("</summary>\n")
        if let point = values.point {
            sink.markup("<georss:point>")
            sink.value(point)
            sink.markup("</georss:point>\n")
        }
        sink.markup("</entry>\n")
    }

    /// Where `write(_:itemPart:into:)` writes an entry. Texts are XML-escaped (`XMLText.escape`).
    protocol EntrySink {
        /// Our own markup, the same in every entry.
        mutating func markup(_ text: StaticString)
        /// One of the item's texts.
        mutating func value(_ text: String)
        /// A text that many entries have (a label): markup of a kept entry.
        mutating func shared(_ text: String)
        /// A text of which each occurrence of `part` (an item's own part of a longer text, such as
        /// its id in a link) is the item's and the rest is the same in every entry.
        mutating func text(_ text: String, part: String)
        /// Where the search's distance goes.
        mutating func slot()
    }

    /// The entry's bytes before and after its slot.
    struct Plain: EntrySink {
        var before: [UInt8] = []
        var after: [UInt8] = []
        private var isAfter = false

        mutating func markup(_ text: StaticString) {
            text.withUTF8Buffer { isAfter ? after.append(contentsOf: $0) : before.append(contentsOf: $0) }
        }

        mutating func value(_ text: String) {
            isAfter ? XMLText.escape(text, into: &after) : XMLText.escape(text, into: &before)
        }

        mutating func text(_ text: String, part: String) { value(text) }

        mutating func shared(_ text: String) { value(text) }

        mutating func slot() { isAfter = true }
    }

    /// The entry as a compact fragment's parts (`CompactFragment.Recorder`), and its bytes with the
    /// slot empty (for its hash).
    struct Recorder: EntrySink {
        var recorder = CompactFragment.Recorder()
        var bytes: [UInt8] = []

        init() {
            bytes.reserveCapacity(640)
        }

        mutating func markup(_ text: StaticString) {
            text.withUTF8Buffer {
                recorder.markup($0)
                bytes.append(contentsOf: $0)
            }
        }

        mutating func value(_ text: String) {
            var escaped: [UInt8] = []
            XMLText.escape(text, into: &escaped)
            recorder.value(escaped)
            bytes += escaped
        }

        mutating func shared(_ text: String) {
            let before = bytes.count
            XMLText.escape(text, into: &bytes)
            recorder.markup(bytes[before...])
        }

        /// Each occurrence of `part`'s bytes, left to right, is a value; the text between them is
        /// markup. Without an occurrence, the whole text is a value. Escaping is per character, so the pieces escaped apart are the whole escaped:
        /// `part` is ASCII (an id as URLs spell it), so a match starts and ends on characters, and
        /// escaping leaves it as it is.
        mutating func text(_ text: String, part: String) {
            text.withUTF8View { whole in
                part.withUTF8View { needle in
                    var start = 0
                    var index = 0
                    func shared(_ end: Int) {
                        guard end > start else { return }
                        let before = bytes.count
                        XMLText.escape(bytes: whole.view(start..<end), into: &bytes)
                        recorder.markup(bytes[before...])
                    }
                    while !needle.isEmpty, index + needle.count <= whole.count {
                        guard whole.byte(at: index) == needle.byte(at: 0), whole.hasBytes(needle, at: index) else {
                            index += 1
                            continue
                        }
                        shared(index)
                        recorder.value(needle.array)
                        bytes.append(contentsOf: needle)
                        index += needle.count
                        start = index
                    }
                    guard start > 0 else {
                        // No occurrence: the whole text is the item's own (a photo's URL), not markup.
                        let before = bytes.count
                        XMLText.escape(bytes: whole, into: &bytes)
                        recorder.value(Array(bytes[before...]))
                        return
                    }
                    shared(whole.count)
                }
            }
        }

        mutating func slot() { recorder.slot(0) }
    }

    /// One language's entries of a generation: read without a lock (`PublishedFragments`), the
    /// markup they share published before them (as `CardFragments` does). One lock for every feed
    /// request and its 50 entries was contended under random-location load.
    private final class Kept: Sendable {
        /// By position in the snapshot's items; 0 until first asked for.
        let entries: PublishedFragments
        /// The markup its fragments share.
        let markup: SharedMarkup
        /// `markup.pieces` as of the last fragment kept, published before it.
        let pieces = Mutex(MarkupPieces())
        /// Where the kept entries' bytes live.
        let arena: FragmentArena

        init(count: Int) {
            entries = PublishedFragments(count: count)
            markup = SharedMarkup()
            arena = FragmentArena()
        }

        /// The entries of a new snapshot's unchanged items (`Snapshot.carried`) as `old` kept them, as
        /// `CardFragments.init(succeeding:…)` carries cards.
        init(succeeding old: Kept, carried: [Int32]) {
            entries = PublishedFragments(count: carried.count)
            markup = old.markup
            pieces.withLock { $0 = old.pieces.withLock { $0 } }
            arena = PublishedFragments.carry([(from: old.entries, to: entries)], carried: carried, arena: old.arena)
        }
    }

    /// The current generation's entries, per language.
    private let kept = SnapshotMemo<[Language: Kept]>()
    /// The tag URI authority of the public base URL (`FeedSearch.authority(ofBaseURL:)`), found once.
    let authority: String

    /// Entries for a site whose public base URL is `baseURL`.
    init(baseURL: String) {
        authority = FeedSearch.authority(ofBaseURL: baseURL)
    }

    /// The entries of `snapshot`'s unchanged items, carried from its predecessor's, made while the snapshot is
    /// (`PageCaches.prepare`); the closure returned keeps them just before the snapshot replaces the held one.
    func prepare(_ snapshot: Snapshot) -> @Sendable () -> Void {
        guard let predecessor = snapshot.predecessor else { return {} }
        let old = kept.withKept { generation, state in generation == predecessor ? state : nil } ?? nil
        guard let old else { return {} }
        let next = old.mapValues { Kept(succeeding: $0, carried: snapshot.carried) }
        let generation = snapshot.generation
        return { [kept] in kept.keep(next, for: generation) }
    }

    /// Lets go of the entries of generations before `generation` (a new snapshot replaces theirs) and
    /// keeps none for them from now on: without this, a replaced snapshot's entries stayed until the
    /// next feed request in their language.
    func retire(below generation: Int) {
        kept.retire(below: generation)
    }

    /// Languages whose entries are kept, with their generation (tests).
    var keptGenerations: [Language: Int] { kept.withKept { generation, state in state.mapValues { _ in generation } } ?? [:] }

    /// The entries of the items of `all` at `positions`, in that order, in `language`, as the
    /// addresses they are kept at (`Fragment(prefixedAt:)` reads one), the markup they share, and the
    /// arena holding their bytes (keep it alive while writing them: `FragmentArena`); those not
    /// written yet for this generation are made by `make` (outside the lock) against that markup and
    /// kept. Addresses rather than fragments: an array of fragments was destroyed element by element
    /// through the generic value witness, twice per feed (callgrind: 2 % of a located feed).
    func fragments(
        generation: Int,
        language: Language,
        all: [Announcement],
        positions: [Int],
        keep: Bool = true,
        make: (Announcement, SharedMarkup) -> Fragment
    ) -> (addresses: [Int], markup: MarkupPieces, owner: FragmentArena) {
        // Kept entries are by position in the listed index; another index's (the reunited pets') are made alone.
        let kept: Kept? =
            !keep
            ? nil
            : self.kept.withValue(for: generation, make: { [:] }) { state, isKept in
                guard isKept else { return nil }
                if let current = state[language] { return current }
                let fresh = Kept(count: all.count)
                state[language] = fresh
                return fresh
            }
        guard let kept else {
            // A request still on an older or replaced snapshot, or of another index: its entries are made for
            // it alone, in an arena of its own.
            let markup = SharedMarkup()
            let arena = FragmentArena()
            let addresses = positions.map { make(all[$0], markup).keptPrefixed(in: arena) }
            return (addresses, markup.pieces, arena)
        }
        var addresses = positions.map { kept.entries.address(at: $0) }
        // Read after the entries: it holds every piece they name (published before them).
        var pieces = kept.pieces.withLock { $0 }
        var made: [(position: Int, address: Int)] = []
        for slot in addresses.indices where addresses[slot] == 0 {
            let address = make(all[positions[slot]], kept.markup).keptPrefixed(in: kept.arena)
            addresses[slot] = address
            made.append((positions[slot], address))
        }
        if !made.isEmpty {
            let current = kept.markup.pieces
            pieces = current
            kept.pieces.withLock { published in
                if published.count < current.count { published = current }
            }
            for (position, address) in made {
                kept.entries.publish(address, at: position)
            }
        }
        return (addresses, pieces, kept.arena)
    }
}

extension [UInt8] {
    /// These bytes in an array of their own size, when more than an eighth of its room is unused:
    /// for what is kept long (card and feed fragments), not for what is sent once.
    func fitted() -> [UInt8] {
        guard capacity - count > capacity / 8 else { return self }
        // A copy of the slice gets room for its bytes only (the array itself would be shared as it is).
        return [UInt8](self[...])
    }
}
