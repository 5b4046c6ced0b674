import CompiledTemplates
import FastBytes
import Foundation
import Synchronization

/// A kept card or feed entry as its own values plus references to markup kept once per snapshot
/// (`SharedMarkup`): a 1.5 KB card is about three quarters template text, the same in every card
/// of a language, and a feed entry about half (docs/performance.md "Memory"). The fragment is made
/// once more with a marker in place of each of its values; the text between markers is the shared
/// markup, and the fragment keeps only which pieces of it come where, its escaped values and the
/// places of the per-visitor slots. A card's markup still comes from
/// `Templates/partials/card.mustache` alone, and a fragment is kept this way only when putting it
/// back together gives exactly the bytes made normally; otherwise its bytes are kept as they are.
///
/// One sequence of bytes per fragment: an 8-byte header (size, part count), the parts (4 bytes
/// each: kind in the top two bits, payload below) and the values; in its own array while it is
/// made, in its snapshot's `FragmentArena` once kept (`kept(in:)`).
struct CompactFragment: Sendable {
    private enum Storage {
        case array([UInt8])
        /// Bytes in a `FragmentArena`, valid while it lives: never changed, so safe to share.
        case arena(ByteView)
    }

    private let storage: Storage

    private enum Kind {
        static let markup: UInt32 = 0
        static let value: UInt32 = 1
        static let slot: UInt32 = 2
        /// A value written earlier in the fragment, again: its offset among the values (high 15
        /// bits of the payload) and length (low 15).
        static let again: UInt32 = 3
        static let payloadMask: UInt32 = 0x3FFF_FFFF
        static let againLimit = 1 << 15
    }

    /// One part while a card is being taken apart: markup (by index), a value (by length) or a slot;
    /// or a value again (`Recorder`: a feed entry's id and date are each written twice).
    fileprivate enum Part {
        case markup(Int)
        case value(Int)
        case slot(Int)
        case again(offset: Int, length: Int)
    }

    private init(parts: [Part], values: [UInt8], size: Int) {
        var storage: [UInt8] = []
        storage.reserveCapacity(8 + 4 * parts.count + values.count)
        CompactFragment.append(UInt32(truncatingIfNeeded: size), to: &storage)
        CompactFragment.append(UInt32(parts.count), to: &storage)
        for part in parts {
            switch part {
            case .markup(let index): CompactFragment.append(Kind.markup << 30 | UInt32(index), to: &storage)
            case .value(let length): CompactFragment.append(Kind.value << 30 | UInt32(length), to: &storage)
            case .slot(let slot): CompactFragment.append(Kind.slot << 30 | UInt32(slot), to: &storage)
            case .again(let offset, let length): CompactFragment.append(Kind.again << 30 | UInt32(offset << 15 | length), to: &storage)
            }
        }
        storage += values
        self.storage = .array(storage)
    }

    private init(arena bytes: ByteView) {
        storage = .arena(bytes)
    }

    /// This fragment with its bytes copied into `arena`: reading it then retains nothing, and it is
    /// valid while `arena` lives.
    func kept(in arena: FragmentArena) -> CompactFragment {
        CompactFragment(arena: withBytes { arena.keep($0) })
    }

    /// This fragment's bytes copied into `arena` after their length and `tag`, as one address to
    /// publish in a word (`PublishedFragments`); `CompactFragment(prefixedAt:)` reads it back.
    func keptPrefixed(in arena: FragmentArena, tag: Int64 = 0) -> Int {
        withBytes { arena.keepPrefixed($0, tag: tag) }
    }

    /// The fragment `keptPrefixed(in:tag:)` kept at `address` (valid while its arena lives).
    init(prefixedAt address: Int) {
        self.init(arena: FragmentArena.prefixed(at: address).bytes)
    }

    /// Calls `body` with the fragment's bytes.
    @inline(__always)
    private func withBytes<T>(_ body: (ByteView) -> T) -> T {
        switch storage {
        case .array(let bytes): bytes.withView(body)
        case .arena(let bytes): body(bytes)
        }
    }

    private static func append(_ word: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }

    /// Bytes this card keeps of its own (its values and the list of its parts).
    var storageBytes: Int { withBytes(\.count) }

    /// Bytes of the card without its slots' values (a size hint).
    var size: Int {
        withBytes { Int($0.uint32(at: 0)) }
    }

    /// One byte of each cache line of the fragment, summed. A page reads every card's lines this way
    /// before writing any (`CardSet.byteCount`): the loads do not depend on each other, so the
    /// processor waits for the misses of all cards at once instead of card after card (a card kept
    /// since the snapshot came is rarely in cache at 50,000 items; docs/performance.md "Located pages").
    func touchLines() -> UInt8 {
        withBytes { raw in
            var sum: UInt8 = 0
            var offset = 0
            while offset < raw.count {
                sum &+= raw.byte(at: offset)
                offset += 64
            }
            return sum
        }
    }

    /// Asks for every cache line of the fragment without waiting for them (`Prefetch`).
    func prefetchLines() {
        withBytes { Prefetch.lines(of: $0) }
    }

    /// Appends the card to `output`, with `slot(number, &output)` at each slot.
    @inline(__always)
    func write<Sink: ByteSink>(into output: inout Sink, markup: MarkupPieces, _ slot: (_ slot: Int, _ output: inout Sink) -> Void) {
        markup.withPieces { pieces in
            write(into: &output, pieces: pieces, slot)
        }
    }

    /// Appends the card to `output` with the markup already pinned (`MarkupPieces.withPieces`): a
    /// page pins it once for all its cards (`CardSet.withWriter`), since each pin retains buffers that
    /// every server thread shares, and those reference counts were contended under load.
    @inline(__always)
    func write<Sink: ByteSink>(
        into output: inout Sink,
        pieces: PinnedPieces,
        _ slot: (_ slot: Int, _ output: inout Sink) -> Void
    ) {
        withBytes { raw in
            write(raw, pieces, into: &output, slot)
        }
    }

    @inline(__always)
    private func write<Sink: ByteSink>(
        _ raw: ByteView,
        _ pieces: PinnedPieces,
        into output: inout Sink,
        _ slot: (_ slot: Int, _ output: inout Sink) -> Void
    ) {
        let count = Int(raw.uint32(at: 4))
        let valuesStart = 8 + 4 * count
        var valueOffset = valuesStart
        for index in 0..<count {
            let part = raw.uint32(at: 8 + 4 * index)
            let payload = Int(part & Kind.payloadMask)
            switch part >> 30 {
            case Kind.markup:
                output.append(bytes: pieces[payload])
            case Kind.value:
                output.append(bytes: raw.view(valueOffset..<valueOffset + payload))
                valueOffset += payload
            case Kind.slot:
                slot(payload, &output)
            default:
                let start = valuesStart + (payload >> 15)
                output.append(bytes: raw.view(start..<start + (payload & (Kind.againLimit - 1))))
            }
        }
    }

    /// A card kept as it is: its bytes as values, with its slots.
    init(plain reference: SlottedBytes) {
        var parts: [Part] = []
        var start = 0
        for hole in reference.holes {
            if hole.offset > start { parts.append(.value(hole.offset - start)) }
            parts.append(.slot(hole.slot))
            start = hole.offset
        }
        if reference.bytes.count > start { parts.append(.value(reference.bytes.count - start)) }
        self.init(parts: parts, values: reference.bytes, size: reference.bytes.count)
    }

    /// A fragment written part by part by a writer that says which of its bytes are markup shared
    /// by every fragment of its kind and which are the item's own values (a feed entry:
    /// `FeedEntries.write(_:itemPart:into:)`). Its bytes are the writer's own by construction, so
    /// there is no marked copy to cut and compare (that cost a feed entry five times as much).
    struct Recorder {
        fileprivate var parts: [Part] = []
        fileprivate var values: [UInt8] = []
        fileprivate var pieces: [[UInt8]] = []
        /// The markup since the last value or slot.
        fileprivate var piece: [UInt8] = []
        fileprivate var size = 0
        /// Where each value so far starts among the values, and its length.
        private var earlier: [(offset: Int, length: Int)] = []

        init() {}

        /// Appends shared markup.
        mutating func markup(_ bytes: some Sequence<UInt8>) {
            piece += bytes
        }

        /// Appends shared markup written by `write` (e.g. escaped).
        mutating func markup(_ write: (inout [UInt8]) -> Void) {
            write(&piece)
        }

        /// Appends one of the item's values; one written before is kept once (`Kind.again`).
        mutating func value(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            endPiece()
            size += bytes.count
            // A few values per fragment: a scan of the earlier ones of the same length.
            let same = earlier.first { $0.length == bytes.count && values[$0.offset..<$0.offset + $0.length].elementsEqual(bytes) }
            if bytes.count >= 8, bytes.count < Kind.againLimit, let offset = same?.offset, offset < Kind.againLimit {
                parts.append(.again(offset: offset, length: bytes.count))
                return
            }
            earlier.append((values.count, bytes.count))
            parts.append(.value(bytes.count))
            values += bytes
        }

        /// Appends slot `number` (`write`'s closure fills it).
        mutating func slot(_ number: Int) {
            endPiece()
            parts.append(.slot(number))
        }

        fileprivate mutating func endPiece() {
            guard !piece.isEmpty else { return }
            parts.append(.markup(pieces.count))
            pieces.append(piece)
            size += piece.count
            piece = []
        }
    }

    /// The fragment `recorder` wrote, its markup kept once in `shared`.
    init(recorded recorder: Recorder, markup shared: SharedMarkup) {
        var recorded = recorder
        recorded.endPiece()
        let ids = shared.intern(recorded.pieces)
        let parts = recorded.parts.map { part in
            if case .markup(let local) = part { return Part.markup(ids[local]) }
            return part
        }
        self.init(parts: parts, values: recorded.values, size: recorded.size)
    }

    /// A fragment cut at its markers, its pieces not kept yet.
    private struct Cut {
        var parts: [Part] = []
        var values: [UInt8] = []
        var pieces: [[UInt8]] = []
        /// Bytes of pieces and values.
        var size = 0

        init?(_ marked: [UInt8], values: [[UInt8]?]) {
            var start = 0
            var index = 0
            func endPiece(at end: Int) {
                guard end > start else { return }
                parts.append(.markup(pieces.count))
                pieces.append([UInt8](marked[start..<end]))
                size += end - start
            }
            while index < marked.count {
                guard let slot = SlottedBytes.privateUseSlot(in: marked, at: index) else {
                    index += 1
                    continue
                }
                endPiece(at: index)
                if slot < Markers.firstValueSlot {
                    parts.append(.slot(slot))
                } else {
                    guard slot - Markers.firstValueSlot < values.count, let value = values[slot - Markers.firstValueSlot] else { return nil }
                    parts.append(.value(value.count))
                    self.values += value
                    size += value.count
                }
                index += 3
                start = index
            }
            endPiece(at: marked.count)
        }

        /// The parts naming the kept pieces `ids` instead of the local ones.
        func parts(_ ids: [Int]) -> [Part] {
            parts.map { part in
                if case .markup(let local) = part { return .markup(ids[local]) }
                return part
            }
        }
    }

    /// The fragment taken apart: `marked` is it made with `Markers` in place of its values (and
    /// the slots' own markers), `values` the escaped value of each marker, `reference` the fragment
    /// as normally made, split at its slots. Nil unless the parts give `reference` exactly; then
    /// the shape of `marked` counts as checked (`init(trusting:values:markup:)`).
    init?(marked: [UInt8], values: [[UInt8]?], reference: SlottedBytes, markup shared: SharedMarkup) {
        guard let cut = Cut(marked, values: values) else { return nil }
        // Put back together with the local pieces; kept only when that is the fragment, byte for byte.
        let candidate = CompactFragment(parts: cut.parts, values: cut.values, size: cut.size)
        var rebuilt: [UInt8] = []
        rebuilt.reserveCapacity(reference.bytes.count)
        var holes: [SlottedBytes.Hole] = []
        candidate.write(into: &rebuilt, markup: MarkupPieces(cut.pieces)) { slot, output in
            holes.append(SlottedBytes.Hole(offset: output.count, slot: slot))
        }
        guard rebuilt == reference.bytes, holes == reference.holes else { return nil }
        self.init(parts: cut.parts(shared.intern(cut.pieces, checkedShape: marked)), values: cut.values, size: cut.size)
    }

    /// The fragment taken apart without making it normally to compare: only when a fragment of
    /// the same shape (the same `marked` bytes: the same markup, values and slots in the same
    /// places) was checked against its reference, and no value holds `&` (its text had a
    /// character that escaping changes) or a line break (indentation could differ). Markers keep
    /// each optional part chosen as for the real values, and each value is escaped as the
    /// fragment escapes it, so the fragment made normally is the same bytes; saves making each
    /// card twice (Tests/CompiledTemplatesTests/CompactFragmentTests.swift compares both on hostile texts).
    init?(trusting marked: [UInt8], values: [[UInt8]?], markup shared: SharedMarkup) {
        for value in values {
            guard let value else { continue }
            if value.contains(where: { $0 == UInt8(ascii: "&") || $0 == 0x0A || $0 == 0x0D }) { return nil }
        }
        guard let cut = Cut(marked, values: values), let ids = shared.internIfChecked(cut.pieces, shape: marked) else { return nil }
        self.init(parts: cut.parts(ids), values: cut.values, size: cut.size)
    }
}
