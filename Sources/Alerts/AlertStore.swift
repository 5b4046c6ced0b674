import Foundation

/// Everything e-mail alerts keep (docs/alerts-store.md): subscriptions, the hashes of their link
/// tokens, the pets the service has seen, what each subscription is owed, the outbox of mails, and the
/// addresses that must not be written to. Two implementations keep one contract (`AlertStoreContractTests`
/// runs on both): `MemoryAlertStore`, this process's memory, for one replica; `PostgresAlertStore`
/// (target PetSpotPostgres), one PostgreSQL for every replica, where "once" means once for the service.
///
/// Every time is passed in (`now`), from the site's one wall clock (`DayClock` in WebApp), so tests
/// move it by hand. Every call may throw `AlertStoreUnavailable`.
public protocol AlertStore: Sendable {
    /// Records a subscribe form. Returns the subscription owed a confirmation mail (queued in the outbox
    /// by this call), or nil when nothing is to be sent: the address asked never to be written to, the
    /// same subscription is already active, or the address had its confirmations for the day. The
    /// visitor is told the same in every case (no address enumeration).
    func subscribe(_ request: SubscriptionRequest, now: Date) async throws -> Subscription?
    /// The active subscription relaying `petID`'s sightings to `email` (the announcement's own address), made
    /// on the first sighting without a confirmation mail; nil when the address asked never to be written to or
    /// the owner stopped these mails (docs/sightings.md "The relay"). The same address and pet give the same one.
    func followSightings(email: String, petID: String, language: String, now: Date) async throws -> Subscription?
    /// A new token for `subscriptionID`'s links; the store keeps its hash only.
    func mintToken(subscriptionID: String, purpose: TokenPurpose, now: Date) async throws -> String
    /// The subscription `token` is for (nil: unknown, or its subscription is gone).
    func subscription(token: String, purpose: TokenPurpose) async throws -> Subscription?
    /// Confirms the subscription of a `confirm` token (idempotent); lifts a permanent refusal of its address.
    func confirm(token: String, now: Date) async throws -> Subscription?
    /// Changes what a subscription's mails are like; nil values are kept.
    func update(subscriptionID: String, frequency: AlertFrequency?, rangeKm: Int?, language: String?) async throws
    /// Stops a subscription (one click, or the manage page); its owed mails are dropped. Idempotent.
    func stop(subscriptionID: String) async throws
    /// Erases every subscription, token, owed pet and mail of the address.
    func forget(addressHash: [UInt8]) async throws
    /// "This was not me, never write again": `forget`, and the address's hash kept so nothing is sent to it again.
    func neverAgain(addressHash: [UInt8]) async throws

    /// Records the ids of a list the service saw. Returns those the service had never seen, each claimed
    /// by exactly this caller for its fan-out (whichever replica inserts an id first gets it); the first list a
    /// fresh store ever sees owes nothing and returns []. A fan-out not finished (`finishFanOut`) within a
    /// minute is handed out again by `unfinishedFanOuts`.
    func recordSeen(petIDs: [String], now: Date) async throws -> [String]
    /// The fan-out of these ids is done (their owed mails are in the outbox).
    func finishFanOut(petIDs: [String]) async throws
    /// Ids whose fan-out was claimed over a minute ago and never finished (its replica died): claimed
    /// again by this caller.
    func unfinishedFanOuts(now: Date) async throws -> [String]
    /// Active area subscriptions whose circle holds `latitude`/`longitude` and whose filters admit the
    /// pet's status and species, found through an index, not by reading every subscription.
    func searchesContaining(latitude: Double, longitude: Double, status: String, species: String) async throws -> [Subscription]
    /// Active subscriptions to a report's matches.
    func matchFollows() async throws -> [Subscription]
    /// Owes each (subscription, pet) pair one mail (or a digest's line), once ever: pairs owed before are
    /// ignored. Queues or moves forward each subscription's next mail by `AlertSchedule.due`. Returns
    /// how many pairs were new.
    @discardableResult
    func owe(_ pairs: [(subscriptionID: String, petID: String)], now: Date) async throws -> Int

    /// Claims up to `limit` due mails for `AlertSchedule.lease` (`FOR UPDATE SKIP LOCKED`: two senders
    /// never hold the same mail), with the pets each tells of.
    func claimDue(now: Date, limit: Int) async throws -> [OwedMail]
    /// The mail went out.
    func markSent(mailID: String, now: Date) async throws
    /// A temporary failure: due again at `retryAt`, or failed for good when that is past `retryFor`.
    func markRetry(mailID: String, retryAt: Date, reason: String, now: Date) async throws
    /// A permanent failure: not retried; with `refusedAddress`, every subscription of the address stops
    /// until it is asked for and confirmed again.
    func markFailed(mailID: String, reason: String, refusedAddress: Bool, now: Date) async throws
    /// The outbox's depth and the age of its oldest due mail.
    func outboxState(now: Date) async throws -> OutboxState
    /// Removes pending subscriptions older than `AlertSchedule.pendingFor`, and sent mails and spent
    /// tokens past their use.
    func sweep(now: Date) async throws
}
