import FastBytes

/// The identity of one upstream list item by its bytes: two 64-bit SipHash values of them, each with the
/// process's own random seed (`Hasher`), so an upstream cannot choose items that collide, and 128 bits make an
/// accidental collision among a list's items (about 2^-98 for 50,000) something that does not happen. Keeping
/// the bytes themselves instead would hold a second copy of the 28 MB list (docs/performance.md "Steady speed").
public struct ItemKey: Hashable, Sendable {
    let first: UInt64
    let second: UInt64

    /// The key of `bytes`.
    public init(_ bytes: ByteView) {
        var one = Hasher()
        bytes.hash(into: &one)
        var two = Hasher()
        two.combine(0x5eed as UInt64)
        bytes.hash(into: &two)
        first = UInt64(truncatingIfNeeded: one.finalize())
        second = UInt64(truncatingIfNeeded: two.finalize())
    }
}

/// What the decode of one list learned about each item, by the item's bytes (`ItemKey`), so that the next
/// list's unchanged items are neither parsed into values nor validated nor given a place name again: a refresh
/// that adds one report validates one item (`AnnouncementDecoder.decodeList(bytes:places:reusing:)`). It
/// keeps no announcement of its own: a valid item is found by its position in the snapshot that holds it
/// (`Snapshot.decoded`), so it costs a few bytes per item, not a second copy of the items.
public struct DecodedItems: Sendable {
    /// Where a valid item is: a position in the listed index (0…), or in the reunited one (-1 - position).
    public typealias Place = Int32

    /// The valid items' places (`Place`), the invalid items' records, and the warnings of the valid items that
    /// had any (few), so a reused item reports the same as a decoded one.
    var valid: [ItemKey: Place] = [:]
    var invalid: [ItemKey: SkippedItem] = [:]
    var warnings: [ItemKey: [FieldWarning]] = [:]

    /// Nothing learned yet.
    public static let none = DecodedItems()

    /// Whether an item with `key` was read before.
    func knows(_ key: ItemKey) -> Bool {
        valid[key] != nil || invalid[key] != nil
    }

    /// Number of items known (tests and the refresh's log line).
    public var count: Int { valid.count + invalid.count }
}

/// The decode of one list with what it reused (`DecodedItems`): the outcome, as a whole decode would give it,
/// the key of each valid item (in `outcome.items`' order) and where each was in the snapshot it was reused
/// from (`DecodedItems.Place`; nil when it was decoded now).
public struct DecodedList: Sendable {
    public var outcome: ListOutcome
    public var keys: [ItemKey]
    public var reusedFrom: [DecodedItems.Place?]
    /// Keys and records of the invalid items, and warnings by the key of their item.
    var invalid: [ItemKey: SkippedItem]
    var warnings: [ItemKey: [FieldWarning]]

    /// Number of valid items reused.
    public var reusedCount: Int { reusedFrom.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// What the next decode may reuse, once the valid items are split into the listed index (`listed`: each
    /// valid item's place there or in the reunited one, in `outcome.items`' order).
    public func decodedItems(places: [DecodedItems.Place]) -> DecodedItems {
        var known = DecodedItems()
        known.valid.reserveCapacity(keys.count)
        for (key, place) in zip(keys, places) where known.valid[key] == nil { known.valid[key] = place }
        known.invalid = invalid
        known.warnings = warnings
        return known
    }
}
