import Foundation
import PetDomain
import Synchronization

/// The pets our shared store says are home (docs/sightings.md "Reunited"), by id, with the time; `version`
/// changes whenever the set does, so a snapshot knows whether it was built with the current one.
public struct ReunitedPets: Sendable, Equatable {
    public var at: [String: Date]
    public var version: Int

    public init(at: [String: Date] = [:], version: Int = 0) {
        self.at = at
        self.version = version
    }

    /// No pet reunited (no store, or none yet).
    public static let none = ReunitedPets()
}

/// One upstream list, validated and indexed: what every list page, located or not, is answered
/// from (docs/scaling.md). Immutable; a refresh makes a new one with a new `generation`.
public struct Snapshot: Sendable {
    /// The valid items that are listed, with their orders and spatial index: every page, feed, map, match and
    /// alert reads this one, so a reunited pet leaves them all at once.
    public let index: AnnouncementIndex
    /// The reunited pets of the list, each with its `reunitedAt` (`/pets?status=reunited`, their details pages).
    public let reunited: AnnouncementIndex
    /// Number of upstream items left out by validation.
    public let skippedCount: Int
    /// Distinguishes snapshots: rendered pages are valid for one generation only. A 304
    /// revalidation keeps the generation (same data, same pages).
    public let generation: Int
    /// The `ReunitedPets.version` the snapshot was split by.
    public let reunitedVersion: Int
    /// What the next list's decode may reuse of this one's items (`DecodedItems`).
    public let decoded: DecodedItems
    /// The snapshot this one reused unchanged items of (`predecessor`), and for each listed position here the
    /// listed position of the same item there (-1: new or changed): what was made per item of the predecessor
    /// (cards, feed entries) is kept for these (`CardFragments`, docs/performance.md "Steady speed").
    public let predecessor: Int?
    public let carried: [Int32]

    private static let counter = Atomic<Int>(0)

    /// Indexes `outcome` under a new generation number, each item with its nearest place in `places`, the pets of
    /// `reunited` apart.
    public init(_ outcome: ListOutcome, places: PlaceFinder? = nil, reunited: ReunitedPets = .none) {
        let items = places == nil ? outcome.items : outcome.items.map { $0.withNearestPlace(places) }
        var listed: [Announcement] = []
        var home: [Announcement] = []
        listed.reserveCapacity(items.count)
        for var item in items {
            if let at = reunited.at[item.id] {
                item.reunitedAt = at
                home.append(item)
            } else {
                listed.append(item)
            }
        }
        index = AnnouncementIndex(items: listed)
        self.reunited = AnnouncementIndex(items: home)
        skippedCount = outcome.skipped.count
        reunitedVersion = reunited.version
        decoded = .none
        predecessor = nil
        carried = []
        generation = Snapshot.counter.add(1, ordering: .relaxed).newValue
    }

    /// Indexes a decode that reused items of `predecessor` (`AnnouncementDecoder.decodeList(bytes:places:reusing:item:)`),
    /// the pets of `reunited` apart, noting which listed items are the predecessor's unchanged ones (`carried`).
    public init(_ list: DecodedList, reunited: ReunitedPets = .none, predecessor: Snapshot?) {
        let items = list.outcome.items
        var listed: [Announcement] = []
        var home: [Announcement] = []
        var places: [DecodedItems.Place] = []
        var carried: [Int32] = []
        carried.reserveCapacity(items.count)
        places.reserveCapacity(items.count)
        let anyHome = !reunited.at.isEmpty && items.contains { reunited.at[$0.id] != nil }
        if !anyHome {
            // The usual case: every item is listed, and the decode's array is the index's (an item is ~450 bytes,
            // so a copy of 50,000 was 22 MB more at the refresh's peak).
            listed = items
        } else {
            listed.reserveCapacity(items.count)
        }
        for (offset, item) in items.enumerated() {
            if anyHome, let at = reunited.at[item.id] {
                var item = item
                item.reunitedAt = at
                places.append(-1 - Int32(home.count))
                home.append(item)
                continue
            }
            places.append(anyHome ? Int32(listed.count) : Int32(offset))
            if anyHome { listed.append(item) }
            // Only a listed item of the predecessor has cards there.
            carried.append(list.reusedFrom[offset].map { $0 >= 0 ? $0 : -1 } ?? -1)
        }
        index = AnnouncementIndex(items: listed)
        self.reunited = AnnouncementIndex(items: home)
        skippedCount = list.outcome.skipped.count
        reunitedVersion = reunited.version
        decoded = list.decodedItems(places: places)
        self.predecessor = predecessor?.generation
        self.carried = predecessor == nil ? [] : carried
        generation = Snapshot.counter.add(1, ordering: .relaxed).newValue
    }

    /// The valid item at `place` (`DecodedItems.Place`): listed or reunited.
    public func item(at place: DecodedItems.Place) -> Announcement? {
        if place >= 0 { return Int(place) < index.items.count ? index.items[Int(place)] : nil }
        let position = Int(-1 - place)
        return position < reunited.items.count ? reunited.items[position] : nil
    }

    /// The announcement `id`, listed or reunited.
    public func announcement(id: String) -> Announcement? {
        index.announcement(id: id) ?? reunited.announcement(id: id)
    }
}
