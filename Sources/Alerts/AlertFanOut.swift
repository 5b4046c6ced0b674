import Foundation
import Logging
import PetDomain
import Synchronization

/// Turns pets that entered the upstream list into owed mails (docs/alerts.md "Once per pet"): each new
/// snapshot's ids go to the store, which hands each id the service never saw to exactly one replica; that
/// replica finds the subscriptions it fits (areas through the store's index, report follows by the rules of
/// docs/matching.md) and owes them. Ids this process saw in its previous snapshot are not sent again.
public final class AlertFanOut: Sendable {
    let store: any AlertStore
    let logger: Logger
    /// Called after owed mails were queued (the local sender wakes at once).
    let onOwed: @Sendable () -> Void
    /// Called with each fan-out's duration in seconds and the number of pets it handled.
    let onFanOut: @Sendable (_ seconds: Double, _ pets: Int) -> Void
    /// How long after a failed fan-out the same list is offered again.
    let retryAfter: Duration
    private let previous = Mutex<Set<String>?>(nil)
    private let newest = Mutex<AnnouncementIndex?>(nil)
    /// One fan-out at a time, in the order snapshots came: each waits for the one before, so its ids
    /// are compared with the last list handled.
    private let inOrder = InOrder()

    public init(
        store: any AlertStore,
        logger: Logger,
        onOwed: @escaping @Sendable () -> Void,
        onFanOut: @escaping @Sendable (_ seconds: Double, _ pets: Int) -> Void = { _, _ in },
        retryAfter: Duration = .seconds(3)
    ) {
        self.retryAfter = retryAfter
        self.store = store
        self.logger = logger
        self.onOwed = onOwed
        self.onFanOut = onFanOut
    }

    /// Handles a new snapshot of the upstream list. Returns how many (subscription, pet) pairs were owed.
    @discardableResult
    public func snapshotChanged(_ index: AnnouncementIndex, now: Date) async -> Int {
        await inOrder.run { await self.handle(index, now: now) }
    }

    /// The newest list a fan-out was given: it may not be the gateway's published snapshot yet (the
    /// listener runs while the refresh is being stored), and the sender reads new pets from it.
    public var latestIndex: AnnouncementIndex? { newest.withLock { $0 } }

    /// The earliest list whose fan-out failed and has not been handled since (nil: none).
    private let unhandled = Mutex<AnnouncementIndex?>(nil)

    /// Handles the earliest list that failed first, then `index`: a fresh store's first list must be the one
    /// the service started with, not a later one that already holds new reports (those would owe nothing).
    private func handle(_ index: AnnouncementIndex, now: Date) async -> Int {
        newest.withLock { $0 = index }
        var owed = 0
        if let earlier = unhandled.withLock({ $0 }), earlier !== index {
            guard let handled = await attempt(earlier, now: now) else { return retryLater(index, now: now) }
            owed += handled
        }
        unhandled.withLock { $0 = nil }
        guard let handled = await attempt(index, now: now) else { return retryLater(index, now: now) }
        return owed + handled
    }

    /// The store failed (it is down, or its schema not in place yet at startup): the list is offered again
    /// shortly, and the ids stay unseen by this process until then.
    private func retryLater(_ index: AnnouncementIndex, now: Date) -> Int {
        unhandled.withLock { $0 = $0 ?? index }
        Task {
            try? await Task.sleep(for: retryAfter)
            await snapshotChanged(index, now: now.addingTimeInterval(retryAfter.seconds))
        }
        return 0
    }

    /// One list's fan-out: the pairs owed, or nil when the store failed.
    private func attempt(_ index: AnnouncementIndex, now: Date) async -> Int? {
        let ids = index.items.map(\.id)
        let known = previous.withLock { $0 }
        let candidates = known.map { seen in ids.filter { !seen.contains($0) } } ?? ids
        let started = ContinuousClock.now
        do {
            var fresh = try await store.recordSeen(petIDs: candidates, now: now)
            fresh += try await store.unfinishedFanOuts(now: now)
            previous.withLock { $0 = Set(ids) }
            guard !fresh.isEmpty else { return 0 }
            let owed = try await fanOut(fresh, index: index, now: now)
            try await store.finishFanOut(petIDs: fresh)
            onFanOut(started.duration(to: .now).seconds, fresh.count)
            if owed > 0 { onOwed() }
            logger.info("alerts owed for new pets", metadata: ["pets": "\(fresh.count)", "owed": "\(owed)"])
            return owed
        } catch {
            logger.warning("alert fan-out failed; trying again shortly", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Owes every subscription that `petIDs` (found in `index`) fit.
    private func fanOut(_ petIDs: [String], index: AnnouncementIndex, now: Date) async throws -> Int {
        let follows = try await store.matchFollows()
        var pairs: [(subscriptionID: String, petID: String)] = []
        for id in petIDs {
            guard let pet = index.announcement(id: id) else { continue }
            if let point = pet.place.coordinate {
                let searches = try await store.searchesContaining(
                    latitude: point.latitude,
                    longitude: point.longitude,
                    status: pet.status.rawValue,
                    species: pet.species.rawValue
                )
                for subscription in searches {
                    guard case .search(let search) = subscription.target, search.fits(pet) else { continue }
                    pairs.append((subscription.id, id))
                }
            }
            let profile = MatchProfile(pet)
            for subscription in follows {
                guard case .matches(let followed) = subscription.target, followed != id, let report = index.announcement(id: followed) else {
                    continue
                }
                if Matching.evaluate(MatchProfile(report), profile, position: 0) != nil { pairs.append((subscription.id, id)) }
            }
        }
        guard !pairs.isEmpty else { return 0 }
        return try await store.owe(pairs, now: now)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
