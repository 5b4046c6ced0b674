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
        generation = Snapshot.counter.add(1, ordering: .relaxed).newValue
    }

    /// The announcement `id`, listed or reunited.
    public func announcement(id: String) -> Announcement? {
        index.announcement(id: id) ?? reunited.announcement(id: id)
    }
}
