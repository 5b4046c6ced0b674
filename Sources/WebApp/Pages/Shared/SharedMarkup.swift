import CompiledTemplates
import FastBytes
import Foundation
import Synchronization

/// The pieces of a `SharedMarkup` in one array, each found by where it ends: a page writes
/// pieces without retaining an array per piece (every retain of an array all threads share is an
/// atomic write both cores contend for).
struct MarkupPieces: Sendable {
    private var bytes: [UInt8] = []
    /// Where piece `i` ends in `bytes`; it starts where piece `i - 1` ends.
    private var ends: [Int] = []

    init() {}

    init(_ pieces: [[UInt8]]) {
        for piece in pieces { append(piece) }
    }

    var count: Int { ends.count }

    mutating func append(_ piece: [UInt8]) {
        bytes += piece
        ends.append(bytes.count)
    }

    /// Calls `body` with the pieces' bytes pinned (valid only inside `body`).
    @inline(__always)
    func withPieces<T>(_ body: (PinnedPieces) -> T) -> T {
        bytes.withView { bytes in
            ends.withElements { ends in
                body(PinnedPieces(bytes: bytes, ends: ends))
            }
        }
    }
}

/// `MarkupPieces` pinned by `withPieces`: a plain value, so writing a card calls no closure per piece.
/// Valid only inside the `withPieces` call that made it.
struct PinnedPieces {
    let bytes: ByteView
    let ends: ElementView<Int>

    /// The bytes of piece `id`.
    @inline(__always)
    subscript(id: Int) -> ByteView {
        bytes.view((id == 0 ? 0 : ends[id - 1])..<ends[id])
    }
}

/// The markup pieces of the kept cards of one snapshot, each kept once: a few dozen per language
/// (the card's text between its values, per combination of its optional parts).
final class SharedMarkup: Sendable {
    private struct State {
        var pieces = MarkupPieces()
        var ids: [Bytes: Int] = [:]
        /// Marked fragments whose taking apart was compared with the fragment made normally.
        var checkedShapes: Set<Bytes> = []

        mutating func intern(_ pieces: [[UInt8]]) -> [Int] {
            pieces.map { piece in
                if let id = ids[Bytes(piece)] { return id }
                self.pieces.append(piece)
                ids[Bytes(piece)] = self.pieces.count - 1
                return self.pieces.count - 1
            }
        }
    }

    /// Bytes as a key, hashed as one run: an array of bytes hashes each byte on its own, and the
    /// lookups of a new card's or feed entry's shape and pieces (~700 bytes) were a sixth of
    /// writing it, under this lock every server thread takes then (callgrind).
    private struct Bytes: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withView { $0.hash(into: &hasher) }
        }
    }

    private let state = Mutex(State())

    /// The id of each piece, added when new; `checkedShape` is the marked fragment they come from,
    /// now checked.
    func intern(_ pieces: [[UInt8]], checkedShape: [UInt8]) -> [Int] {
        state.withLock { state in
            state.checkedShapes.insert(Bytes(checkedShape))
            return state.intern(pieces)
        }
    }

    /// The id of each piece, added when new (pieces of a fragment whose writer told its markup
    /// from its values: `CompactFragment.Recorder`).
    func intern(_ pieces: [[UInt8]]) -> [Int] {
        state.withLock { $0.intern(pieces) }
    }

    /// `intern` when a fragment of `shape` was checked; nil otherwise.
    func internIfChecked(_ pieces: [[UInt8]], shape: [UInt8]) -> [Int]? {
        state.withLock { state in
            guard state.checkedShapes.contains(Bytes(shape)) else { return nil }
            return state.intern(pieces)
        }
    }

    /// Every piece so far, by id: taken after the cards that name them were made.
    var pieces: MarkupPieces { state.withLock { $0.pieces } }
}

/// Markers for a fragment's values while it is taken apart (`CompactFragment`).
struct Markers {
    /// The marker slot of the first value; slots below are the per-visitor ones (`CardFragments.Slot`).
    static let firstValueSlot = 2

    /// The escaped text each marker handed out stands for, by marker number.
    private(set) var values: [[UInt8]?] = []
    private let escape: (String, inout [UInt8]) -> Void

    /// Markers for text escaped by `escape` (the escaping the fragment itself uses).
    init(escape: @escaping (String, inout [UInt8]) -> Void) {
        self.escape = escape
    }

    /// A marker for `text` (`SlottedBytes.cardMarker` of `firstValueSlot + n` for the n-th), or the
    /// text itself when empty, so a fragment's optional parts are chosen as for the real text.
    mutating func mark(_ text: String) -> String {
        guard !text.isEmpty else {
            values.append(nil)
            return text
        }
        var escaped: [UInt8] = []
        escape(text, &escaped)
        values.append(escaped)
        return SlottedBytes.cardMarker(Markers.firstValueSlot + values.count - 1)
    }

    /// `mark(_:)` for an optional text; nil stays nil.
    mutating func mark(_ text: String?) -> String? {
        guard let text else {
            values.append(nil)
            return nil
        }
        return mark(text) as String
    }
}

extension CardModel {
    /// This card with each non-empty text replaced by a marker (`SlottedBytes.cardMarker` of
    /// `firstValueSlot + n` for the n-th field), and the HTML-escaped text each marker stands for.
    /// Empty and absent texts stay as they are, so every section of the template is chosen as for
    /// the real card.
    func valueMarked() -> (card: CardModel, values: [[UInt8]?]) {
        var markers = Markers { text, output in HTMLText.escape(text, into: &output) }
        func mark(_ text: String) -> String { markers.mark(text) }
        func markOptional(_ text: String?) -> String? { markers.mark(text) }
        let card = CardModel(
            id: mark(id),
            detailURL: mark(detailURL),
            name: mark(name),
            speciesLabel: mark(speciesLabel),
            statusLabel: mark(statusLabel),
            statusClass: mark(statusClass),
            photoURL: markOptional(photoURL),
            photoSrcset: markOptional(photoSrcset),
            photoAlt: mark(photoAlt),
            breed: markOptional(breed),
            lastSeenText: mark(lastSeenText),
            placeText: mark(placeText),
            distanceText: markOptional(distanceText),
            rewardText: markOptional(rewardText),
            excerpt: markOptional(excerpt),
            reportAgeText: mark(reportAgeText),
            placeName: markOptional(placeName)
        )
        return (card, markers.values)
    }
}
