import FastBytes
import Foundation
import MicroHTTP
import Testing

@testable import CompiledTemplates
@testable import WebApp

// Kept cards are their values plus markup shared by all cards (`CompactFragment`): put back together
// they must be the card rendered normally, byte for byte, whatever the texts hold, and the shared
// markup must stay a handful of pieces however many cards there are.

/// A card whose optional parts follow the bits of `shape`, with texts that need escaping.
private func card(_ index: Int, shape: Int, name: String? = nil) -> CardModel {
    CardModel(
        id: "id-\(index)",
        detailURL: "/pets/id-\(index)",
        name: name ?? "Max <\(index)> & \"Rex\"",
        speciesLabel: ["Dog", "Cat", "Other"][index % 3],
        statusLabel: ["MISSING", "FOUND"][index % 2],
        statusClass: ["missing", "found"][index % 2],
        photoURL: shape & 1 != 0 ? "/images/id-\(index)/0?w=640" : nil,
        photoSrcset: shape & 2 != 0 ? "/images/id-\(index)/0?w=320 320w" : nil,
        photoAlt: "Photo of 'Max', a dog",
        breed: shape & 4 != 0 ? "Golden Retriever" : (shape & 32 != 0 ? "" : nil),
        lastSeenText: "Nov \(index % 28 + 1), 2025",
        placeText: "ul. Świdnicka \(index), Wrocław",
        distanceText: nil,
        rewardText: shape & 8 != 0 ? "Reward \(index) PLN" : nil,
        excerpt: shape & 16 != 0 ? "Friendly,\nanswers to her name" : nil,
        reportAgeText: "Reported \(index % 9) days ago",
        placeName: shape & 64 != 0 ? "Krzyki, Wrocław" : nil
    )
}

/// Writes `compact` back with `⟨slot⟩` at each slot.
private func written(_ compact: CompactFragment, _ markup: SharedMarkup) -> [UInt8] {
    var output: [UInt8] = []
    compact.write(into: &output, markup: markup.pieces) { slot, output in output += Array("⟨\(slot)⟩".utf8) }
    return output
}

@Test(arguments: [Language.en, Language.pl])
func compact_cards_write_the_rendered_card_byte_for_byte(language: Language) async throws {
    let renderer = try await PageRenderer.load(directory: sourceTemplatesDirectory)
    let render: (CardModel) -> [UInt8] = { renderer.render($0, template: "partials/card", language: language) ?? [] }
    let markup = SharedMarkup()
    var sharedCards = 0
    var keptBytes = 0
    var renderedBytes = 0
    for index in 0..<256 {
        // Texts that look like the markers themselves must not confuse the split.
        let model = card(index, shape: index % 128, name: index % 50 == 7 ? "Max \u{E000}\u{E005}\u{E03F}" : nil)
        let reference = SlottedBytes(bytes: render(model), holes: [])
        let (marked, values) = model.valueMarked()
        let compact = CompactFragment(marked: render(marked), values: values, reference: reference, markup: markup)
        if let compact {
            sharedCards += 1
            #expect(written(compact, markup) == reference.bytes, "card \(index)")
            keptBytes += compact.storageBytes
        }
        renderedBytes += reference.bytes.count
        #expect(written(CompactFragment(plain: reference), markup) == reference.bytes)
    }
    // Every card of these shapes is kept shared, in well under half its bytes, from few pieces.
    #expect(sharedCards == 256)
    #expect(keptBytes * 2 < renderedBytes)
    #expect(markup.pieces.count < 64)
}

@Test func compact_located_cards_keep_the_visitor_slots_in_place() async throws {
    let renderer = try await PageRenderer.load(directory: sourceTemplatesDirectory)
    let render: (CardModel) -> [UInt8] = { renderer.render($0, template: "partials/card", language: .en) ?? [] }
    let markup = SharedMarkup()
    for index in 0..<32 {
        var located = card(index, shape: index * 5 % 128)
        located.detailURL += CardFragments.linkMarker
        located.distanceText = CardFragments.distanceMarker
        let reference = try #require(CardFragments.split(render(located), hasDistance: true))
        var (marked, values) = card(index, shape: index * 5 % 128).valueMarked()
        marked.detailURL += CardFragments.linkMarker
        marked.distanceText = CardFragments.distanceMarker
        let compact = try #require(CompactFragment(marked: render(marked), values: values, reference: reference, markup: markup))
        var expected: [UInt8] = []
        reference.write(into: &expected) { slot, output in output += Array("⟨\(slot)⟩".utf8) }
        #expect(written(compact, markup) == expected)
        #expect(String(decoding: expected, as: UTF8.self).contains("/pets/id-\(index)⟨0⟩"))
    }
}

@Test func a_card_that_does_not_rebuild_exactly_is_not_kept_shared() async throws {
    let renderer = try await PageRenderer.load(directory: sourceTemplatesDirectory)
    let render: (CardModel) -> [UInt8] = { renderer.render($0, template: "partials/card", language: .en) ?? [] }
    let model = card(3, shape: 127)
    let (marked, values) = model.valueMarked()
    // A value that is not what the card shows (as if the template changed it): refused.
    var wrong = values
    wrong[2] = Array("Luna".utf8)
    let reference = SlottedBytes(bytes: render(model), holes: [])
    #expect(CompactFragment(marked: render(marked), values: wrong, reference: reference, markup: SharedMarkup()) == nil)
}

@Test func compact_feed_entries_write_the_entry_byte_for_byte() {
    let markup = SharedMarkup()
    let arena = FragmentArena()
    var keptBytes = 0
    var entryBytes = 0
    for index in 0..<64 {
        // XML drops control characters; text that looks like a marker stays text.
        let values = FeedEntries.Values(
            id: "tag:example.org,2025:pets/id-\(index)",
            title: index % 10 == 3 ? "Missing dog: \u{E000}\u{E004} \u{1}Rex" : "Missing dog: Max <\(index)> & co",
            link: "https://example.org/pets/id-\(index)?lang=en",
            // A photo named by the item's id, another host's photo not named by it (all value), none.
            photo: index % 4 == 0 ? "https://example.org/images/id-\(index)/0?w=640" : index % 4 == 2 ? "https://cdn.example.net/p\(index).jpg" : nil,
            created: "2025-11-\(10 + index % 18)T10:00:00Z",
            summary: [
                FeedEntries.Text("Species: Dog · Breed: ", isShared: true), FeedEntries.Text("\"Lab\" <\(index)>", isShared: false),
                FeedEntries.Text(" · Last seen: ", isShared: true), FeedEntries.Text("Nov 09, 2025", isShared: false),
            ],
            point: index % 3 == 0 ? nil : "51.1\(index) 17.0\(index)"
        )
        let fragment = FeedEntries.Fragment(values, itemPart: "id-\(index)", markup: markup)
        var before: [UInt8] = []
        var after: [UInt8] = []
        FeedEntries.write(values, before: &before, after: &after)
        // The hash a feed's tag folds is the entry's own bytes', and it survives being kept.
        #expect(fragment.hash == EntityTag.hash(before + after), "entry \(index)")
        #expect(FeedEntries.Fragment(prefixedAt: fragment.keptPrefixed(in: arena)).hash == fragment.hash, "entry \(index)")
        var written: [UInt8] = []
        fragment.entry.write(into: &written, markup: markup.pieces) { slot, output in output += Array("⟨\(slot)⟩".utf8) }
        #expect(written == before + Array("⟨0⟩".utf8) + after, "entry \(index)")
        keptBytes += fragment.entry.storageBytes
        entryBytes += before.count + after.count
    }
    // Values once (the id and date are written twice), labels and markup shared: under half the bytes.
    #expect(keptBytes * 10 < entryBytes * 5, "\(keptBytes) of \(entryBytes)")
    // A few shapes of markup, not a piece per item: the other host's photos are values.
    #expect(markup.pieces.count < 16)
}

/// A card with texts that escaping leaves as they are.
private func plainCard(_ index: Int, name: String = "Max", photo: Bool = true) -> CardModel {
    CardModel(
        id: "id-\(index)",
        detailURL: "/pets/id-\(index)",
        name: name,
        speciesLabel: "Dog",
        statusLabel: "MISSING",
        statusClass: "missing",
        photoURL: photo ? "/images/id-\(index)/0?w=640" : nil,
        photoSrcset: nil,
        photoAlt: "Photo of \(name), a dog",
        breed: "Beagle",
        lastSeenText: "Nov \(index), 2025",
        placeText: "Wrocław",
        distanceText: nil,
        rewardText: nil,
        excerpt: "Friendly, \(index) years",
        reportAgeText: "Reported today",
        placeName: nil
    )
}

@Test func a_checked_shape_lets_later_cards_skip_the_second_render() async throws {
    let renderer = try await PageRenderer.load(directory: sourceTemplatesDirectory)
    let render: (CardModel) -> [UInt8] = { renderer.render($0, template: "partials/card", language: .en) ?? [] }
    let markup = SharedMarkup()
    func marked(_ model: CardModel) -> (bytes: [UInt8], values: [[UInt8]?]) {
        let (card, values) = model.valueMarked()
        return (render(card), values)
    }
    let first = marked(plainCard(1))
    // Nothing of this shape was compared with a card rendered normally yet.
    #expect(CompactFragment(trusting: first.bytes, values: first.values, markup: markup) == nil)
    let reference = SlottedBytes(bytes: render(plainCard(1)), holes: [])
    #expect(CompactFragment(marked: first.bytes, values: first.values, reference: reference, markup: markup) != nil)
    // Now the same shape is taken apart alone, and is still the card rendered normally.
    for index in 2..<12 {
        let later = marked(plainCard(index))
        let card = try #require(CompactFragment(trusting: later.bytes, values: later.values, markup: markup))
        var output: [UInt8] = []
        card.write(into: &output, markup: markup.pieces) { _, _ in }
        #expect(output == render(plainCard(index)))
    }
    // A text that escaping changes, or another shape, goes the long way.
    let escaped = marked(plainCard(20, name: "Max & Rex"))
    #expect(CompactFragment(trusting: escaped.bytes, values: escaped.values, markup: markup) == nil)
    let otherShape = marked(plainCard(21, photo: false))
    #expect(CompactFragment(trusting: otherShape.bytes, values: otherShape.values, markup: markup) == nil)
}

/// A fragment kept in a `FragmentArena` writes the same bytes as the one it was copied from, after
/// that one is gone, for fragments of every size (one larger than a quarter chunk gets a chunk of its
/// own) and for thousands of them across chunks; the arena's chunks hold what was kept.
@Test func fragments_kept_in_an_arena_write_what_they_were_made_from() {
    let arena = FragmentArena()
    let markup = SharedMarkup()
    var keptFragments: [(CompactFragment, [UInt8])] = []
    var keptBytes = 0
    for index in 0..<3_000 {
        let size = index == 1_500 ? FragmentArena.chunkBytes : (index * 37) % 900
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        let reference = SlottedBytes(bytes: bytes, holes: index % 3 == 0 ? [SlottedBytes.Hole(offset: size / 2, slot: 1)] : [])
        let made = CompactFragment(plain: reference)
        let expected = written(made, markup)
        let kept = made.kept(in: arena)
        keptBytes += made.storageBytes
        #expect(kept.storageBytes == made.storageBytes && kept.size == made.size)
        keptFragments.append((kept, expected))
    }
    for (index, (kept, expected)) in keptFragments.enumerated() {
        #expect(written(kept, markup) == expected, "fragment \(index)")
    }
    #expect(arena.bytes.kept == keptBytes)
    #expect(arena.bytes.reserved >= keptBytes && arena.bytes.reserved < keptBytes + 2 * FragmentArena.chunkBytes)
}

/// A feed entry's id, link and photo record each occurrence of the item's own part of them as a
/// value and the rest as shared markup (`FeedEntries.Recorder.text(_:part:)`): every occurrence,
/// left to right, as Foundation finds them; a text without one is all value; and the kept entry
/// writes exactly the plain bytes.
@Test func recording_a_part_splits_every_occurrence_and_keeps_the_bytes() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    let textAlphabet = ["a", "b", "/", "-", "?", "=", "%2F", "é", "·", "ab", "&", "<", "\u{1}"]
    let partAlphabet = ["a", "b", "/", "-"]
    let markup = SharedMarkup()
    var split = 0
    for round in 0..<3_000 {
        let text = (0..<next(24)).map { _ in textAlphabet[next(textAlphabet.count)] }.joined()
        let part = (0..<next(4)).map { _ in partAlphabet[next(partAlphabet.count)] }.joined()
        var recorder = FeedEntries.Recorder()
        recorder.text(text, part: part)
        var plain = FeedEntries.Plain()
        plain.text(text, part: part)
        #expect(recorder.bytes == plain.before, "round \(round)")
        let fragment = CompactFragment(recorded: recorder.recorder, markup: markup)
        var written: [UInt8] = []
        fragment.write(into: &written, markup: markup.pieces) { _, _ in }
        #expect(written == plain.before, "round \(round)")
        // Its values alone (every markup piece written empty): the part once per occurrence, as
        // many as Foundation counts, or the whole text when it has none (a photo's own URL).
        let occurrences = part.isEmpty ? 0 : text.components(separatedBy: part).count - 1
        var values: [UInt8] = []
        fragment.write(into: &values, markup: MarkupPieces(Array(repeating: [], count: markup.pieces.count))) { _, _ in }
        #expect(values == (occurrences == 0 ? plain.before : Array(String(repeating: part, count: occurrences).utf8)), "round \(round)")
        if occurrences > 0 { split += 1 }
    }
    #expect(split > 500)
}
