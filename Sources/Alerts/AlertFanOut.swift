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

    private func handle(_ index: AnnouncementIndex, now: Date) async -> Int {
        newest.withLock { $0 = index }
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
            let elapsed = started.duration(to: .now).components
            onFanOut(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, fresh.count)
            if owed > 0 { onOwed() }
            logger.info("alerts owed for new pets", metadata: ["pets": "\(fresh.count)", "owed": "\(owed)"])
            return owed
        } catch {
            // The ids stay unseen by this process and the same list is offered again shortly (the store
            // is down, or its schema not in place yet at startup): waiting for the next snapshot could
            // make a later list the first one a fresh store records, and its new pets would owe nothing.
            logger.warning("alert fan-out failed; trying again shortly", metadata: ["error": "\(error)"])
            Task {
                try? await Task.sleep(for: self.retryAfter)
                await self.snapshotChanged(index, now: now.addingTimeInterval(self.retryAfter.seconds))
            }
            return 0
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
