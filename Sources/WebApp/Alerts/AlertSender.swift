import Alerts
import Foundation
import HTTPTypes
import Logging
import MailDelivery
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain
import Sightings
import Synchronization

/// This replica's sender of the outbox (docs/alerts.md "Delivery"): claims due mails (the store's
/// `FOR UPDATE SKIP LOCKED` with a lease: two replicas never hold the same mail), writes each, hands it
/// to the transport (libcurl's SMTP, or a Maildir folder) and marks what became of it: sent; a temporary
/// failure retried with backoff for 24 hours; a permanent one (5xx) not retried, its address stopped.
/// Woken at once when this replica queues a mail, and polling every few seconds for the others'.
/// A replica killed mid-send leaves its claimed mail to another once the lease ends: at least once.
final class AlertSender: Sendable {
    let store: any AlertStore
    let transport: any MailTransport
    let mails: AlertMails
    let gateway: AnnouncementGateway
    let metrics: Metrics
    let logger: Logger
    let now: @Sendable () -> Date
    /// The newest list the fan-out saw (`AlertFanOut.latestIndex`), which may be newer than the published snapshot.
    let latestIndex: @Sendable () -> AnnouncementIndex?
    /// Signs every mail when `--dkim-selector` and `--dkim-key` are set (docs/mail.md).
    let signer: DKIMSigner?
    /// Where a relay mail's sightings are read (docs/sightings.md "The relay").
    let sightings: any SightingStore
    /// The envelope sender (`--mail-from`'s address).
    let envelopeFrom: String
    /// Reads the upstream list again when it is older than this and no request did (nil: never).
    let readListAfter: Duration?
    /// How often the outbox is looked at without a wake-up.
    let pollEvery: Duration
    private let wakeUps: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation
    /// The loop while the app runs (`start`, `stop`).
    private let running = Mutex<Task<Void, Never>?>(nil)
    /// One drain at a time (`drain`).
    private let drains = InOrder()

    init(
        store: any AlertStore,
        transport: any MailTransport,
        mails: AlertMails,
        gateway: AnnouncementGateway,
        metrics: Metrics,
        logger: Logger,
        now: @escaping @Sendable () -> Date,
        signer: DKIMSigner? = nil,
        sightings: any SightingStore = MemorySightingStore(),
        latestIndex: @escaping @Sendable () -> AnnouncementIndex? = { nil },
        readListAfter: Duration? = nil,
        pollEvery: Duration = .seconds(2)
    ) {
        self.readListAfter = readListAfter
        self.latestIndex = latestIndex
        self.signer = signer
        self.sightings = sightings
        self.store = store
        self.transport = transport
        self.mails = mails
        self.gateway = gateway
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.envelopeFrom = mails.from.address
        self.pollEvery = pollEvery
        (wakeUps, waker) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Something was queued here: look at the outbox now.
    func wake() { waker.yield() }

    /// Starts the loop (with the server: `PetSpotApp.start`).
    func start() {
        running.withLock { task in
            guard task == nil else { return }
            task = Task { await self.loop() }
        }
        wake()
    }

    /// Ends the loop; a mail being sent finishes first.
    func stop() async {
        let task = running.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        waker.yield()
        await task?.value
    }

    private func loop() async {
        var lastSweep = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            // The poll: a tick into the same stream the wake-ups use.
            group.addTask { [waker, pollEvery] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollEvery)
                    waker.yield()
                }
            }
            for await _ in wakeUps {
                if Task.isCancelled { break }
                // A quiet site still hears of pets written straight to the upstream, within the TTL: the
                // refresh's snapshot listener fans them out (the same call a visitor's request would make).
                if let readListAfter, let age = gateway.snapshotAge(), age > readListAfter {
                    _ = try? await gateway.snapshot(requestID: "alerts")
                }
                await drain()
                if ContinuousClock.now - lastSweep > .seconds(3600) {
                    lastSweep = .now
                    await sweep()
                }
            }
            group.cancelAll()
        }
    }

    /// The hourly sweep: the outbox's old rows, and sightings 180 days after they were made, 90 after their pet came
    /// home (docs/sightings.md). A store that is down is swept at the next hour.
    private func sweep() async {
        do { try await store.sweep(now: now()) } catch {
            logger.notice("alert outbox not swept; the next hour tries again", metadata: ["error": "\(error)"])
        }
        do { _ = try await sightings.sweep(now: now()) } catch {
            logger.notice("sightings not swept; the next hour tries again", metadata: ["error": "\(error)"])
        }
    }

    /// Sends every due mail, a batch at a time; returns how many were handed to the transport. One drain
    /// at a time on this replica: a caller waits for the one in flight (whose claimed mails it could not
    /// take), then looks again.
    @discardableResult
    func drain() async -> Int {
        await drains.run { await self.drainNow() }
    }

    private func drainNow() async -> Int {
        var handed = 0
        while !Task.isCancelled {
            let batch: [OwedMail]
            do {
                batch = try await store.claimDue(now: now(), limit: 20)
            } catch {
                logger.notice("alert outbox not reachable; the next poll tries again", metadata: ["error": "\(error)"])
                return handed
            }
            if batch.isEmpty { break }
            for mail in batch {
                await send(mail)
                handed += 1
            }
        }
        await recordDepth()
        return handed
    }

    private func send(_ mail: OwedMail) async {
        let kind = mail.kind.rawValue
        do {
            let message: MailMessage
            switch try await write(mail) {
            case .message(let written):
                message = written
            case .nothing:
                try await store.markSent(mailID: mail.id, now: now())
                metrics.increment("petspot_alert_mails_skipped_total", labels: ["kind": kind])
                return
            case .notYet:
                // Looked at again in 5 s (the store counts it as an attempt; the 24 hours still hold).
                try await store.markRetry(mailID: mail.id, retryAt: now().addingTimeInterval(5), reason: "pets not listed yet", now: now())
                return
            }
            let bytes = try message.rendered(signer: signer)
            let outcome = await transport.deliver(bytes, from: envelopeFrom, to: mail.subscription.email)
            let time = now()
            switch outcome {
            case .sent:
                try await store.markSent(mailID: mail.id, now: time)
                metrics.increment("petspot_alert_mails_sent_total", labels: ["kind": kind])
            case .temporary(let reason):
                let retry = time.addingTimeInterval(AlertSchedule.backoff(attempt: mail.attempts + 1))
                try await store.markRetry(mailID: mail.id, retryAt: retry, reason: reason, now: time)
                metrics.increment("petspot_alert_mails_failed_total", labels: ["kind": kind, "reason": "temporary"])
                logger.notice("alert mail not sent; retrying later", metadata: ["mail": "\(mail.id)", "reason": "\(reason)"])
            case .permanent(let reason):
                // 550, 551 and 553 refuse the mailbox (RFC 5321 §4.2.3): the address gets nothing more. Another
                // 5xx (a server's own failure, a message refused) fails this mail only.
                let refusedAddress = ["550", "551", "553"].contains { reason.hasPrefix($0) }
                try await store.markFailed(mailID: mail.id, reason: reason, refusedAddress: refusedAddress, now: time)
                metrics.increment("petspot_alert_mails_failed_total", labels: ["kind": kind, "reason": "permanent"])
                logger.warning("alert mail refused for good; its address gets nothing more", metadata: ["mail": "\(mail.id)", "reason": "\(reason)"])
            }
        } catch {
            // The store failed after the claim: the lease runs out and the mail is claimed again.
            logger.notice("alert mail left to its lease", metadata: ["mail": "\(mail.id)", "error": "\(error)"])
        }
    }

    /// What a claimed mail comes to.
    enum Written {
        case message(MailMessage)
        /// Nothing left to tell (its pets left the list, or the subscription stopped).
        case nothing
        /// Its pets are not in this replica's lists yet (another replica fanned them out, or this one's
        /// snapshot is being stored): looked at again shortly.
        case notYet
    }

    /// The mail's bytes-to-be.
    private func write(_ mail: OwedMail) async throws -> Written {
        let subscription = mail.subscription
        let time = now()
        switch mail.kind {
        case .confirm:
            let confirm = try await store.mintToken(subscriptionID: subscription.id, purpose: .confirm, now: time)
            let never = try await store.mintToken(subscriptionID: subscription.id, purpose: .never, now: time)
            let what = mails.describe(subscription, index: gateway.freshSnapshot()?.value.index)
            return .message(mails.confirmation(mail, confirmToken: confirm, neverToken: never, what: what))
        case .alert, .digest:
            guard subscription.state == .active else { return .nothing }
            guard let published = try? await gateway.snapshot(requestID: "alerts").value.index else {
                throw AlertStoreUnavailable(operation: "snapshot", detail: "the upstream list is not available")
            }
            let lists = [published] + (latestIndex().map { [$0] } ?? [])
            let pets = mail.petIDs.compactMap { id in lists.lazy.compactMap { $0.announcement(id: id) }.first }
            guard !pets.isEmpty else {
                // A pet owed a moment ago and missing here is on its way (a NOTIFY, a snapshot being
                // stored); one owed long ago and missing has left the list.
                return time.timeIntervalSince(mail.createdAt) < AlertSender.waitForPets ? .notYet : .nothing
            }
            let manage = try await store.mintToken(subscriptionID: subscription.id, purpose: .manage, now: time)
            let index = lists.last ?? published
            return .message(mails.alert(mail, pets: pets, index: index, manageToken: manage, what: mails.describe(subscription, index: index)))
        case .sighting:
            // Stopped (one click, a refused address, a reunion) or swept: nothing to tell.
            guard subscription.state == .active, case .sightings(let petID) = subscription.target else { return .nothing }
            // Home again: the owner needs no more sightings (docs/sightings.md "Reunited").
            guard try await sightings.reunion(petID: petID) == nil else { return .nothing }
            let told = try await sightings.sightings(ids: mail.petIDs)
            guard !told.isEmpty else { return .nothing }
            let pet = gateway.freshSnapshot()?.value.index.announcement(id: petID) ?? latestIndex()?.announcement(id: petID)
            let manage = try await store.mintToken(subscriptionID: subscription.id, purpose: .manage, now: time)
            return .message(mails.sightings(mail, sightings: told, petID: petID, pet: pet, manageToken: manage))
        }
    }

    /// How long a mail whose pets this replica does not list yet is waited for.
    static let waitForPets: TimeInterval = 600

    private func recordDepth() async {
        guard let state = try? await store.outboxState(now: now()) else { return }
        metrics.set("petspot_alert_outbox_mails", to: state.owed)
        metrics.set("petspot_alert_outbox_oldest_due_seconds", to: Int(state.oldestDueSeconds.rounded()))
    }
}
