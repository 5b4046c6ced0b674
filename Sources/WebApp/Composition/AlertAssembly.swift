import Alerts
import Foundation
import Logging
import MailDelivery
import PetAPIClient
import PetDomain
import ReportStore
import Sightings
import Synchronization

/// E-mail alerts (docs/alerts.md): the store (PostgreSQL shared by the replicas, or this process's
/// memory), the transport (libcurl's SMTP, or a Maildir folder), the sender of the outbox, the fan-out of
/// each new snapshot and the pages of the subscribe form and the mails' links.
struct AlertAssembly: Sendable {
    let store: any AlertStore
    let handlers: AlertHandlers
    let sender: AlertSender
    let fanOut: AlertFanOut
    /// Where mails go, for the startup log line (never a password).
    let transportDescription: String

    init(
        configuration: AppConfiguration,
        site: SiteContext,
        gateway: AnnouncementGateway,
        reports: ReportAssembly,
        alertStore: (any AlertStore)?,
        sightings: any SightingStore,
        places: PlaceFinder?,
        metrics: Metrics,
        logger: Logger
    ) throws {
        let logger = logger.with(label: "alerts")
        let store = alertStore ?? MemoryAlertStore()
        let transport = try AlertAssembly.transport(configuration)
        let base = configuration.effectivePublicBaseURL
        let authority = FeedSearch.authority(ofBaseURL: base)
        let from = AlertAssembly.sender(configuration.mailFrom, authority: authority)
        let mails = AlertMails(site: site, base: base, from: from, authority: authority, places: places)
        let days = site.days
        let wake = SenderLink()
        let fanOut = AlertFanOut(
            store: store,
            logger: logger,
            onOwed: { wake.wake() },
            onFanOut: { seconds, _ in metrics.recordDuration("petspot_alert_fanout_seconds", seconds: seconds) }
        )
        let sender = AlertSender(
            store: store,
            transport: transport,
            mails: mails,
            gateway: gateway,
            metrics: metrics,
            logger: logger,
            now: { days.date },
            signer: try AlertAssembly.signer(configuration, domain: from.address.split(separator: "@").last.map(String.init) ?? authority),
            sightings: sightings,
            latestIndex: { fanOut.latestIndex },
            readListAfter: configuration.alertsReadList ? .milliseconds(Int(configuration.cacheTTLSeconds * 1000)) : nil
        )
        wake.connect(sender)
        // Each new snapshot of the upstream list (a TTL refresh, a publish here, another replica's
        // notification) is compared with the one before: the pets that entered it owe their alerts.
        gateway.whenNewSnapshot { snapshot in
            Task { await fanOut.snapshotChanged(snapshot.index, now: days.date) }
        }
        self.store = store
        self.sender = sender
        self.fanOut = fanOut
        self.transportDescription = transport.description
        handlers = AlertHandlers(
            site: site,
            store: store,
            limits: reports.handlers.store,
            identity: reports.handlers.identity,
            gateway: gateway,
            wake: { sender.wake() },
            places: places,
            logger: logger
        )
    }

    /// Owes the owner of `pet` a relay mail of `sighting` at the announcement's e-mail (docs/sightings.md "The
    /// relay"): through the sightings subscription of that address and pet, made active on the first sighting,
    /// and the outbox's instant gap (sightings within 10 minutes of a mail go in the next one). False when the
    /// announcement has no usable e-mail, the owner stopped these mails, or the store failed (logged): the
    /// sighting is kept for the owner's page either way.
    func relay(_ sighting: Sighting, pet: Announcement, language: String, requestID: String) async -> Bool {
        guard let email = pet.email, EmailRule.looksLikeAddress(email) else { return false }
        do {
            guard let subscription = try await store.followSightings(email: email, petID: pet.id, language: language, now: sighting.createdAt)
            else { return false }
            try await store.owe([(subscriptionID: subscription.id, petID: sighting.id)], now: sighting.createdAt)
            sender.wake()
            return true
        } catch {
            handlers.logger.error(
                "alert store unavailable; the sighting is not mailed",
                metadata: ["request_id": "\(requestID)", "error": "\(error)"]
            )
            return false
        }
    }

    /// The fan-out wakes the sender made after it. Weak: the sender reads the fan-out's newest list, and a
    /// strong reference both ways would be a cycle that outlives the app (LeakSanitizer, scripts/sanitizers.sh).
    final class SenderLink: Sendable {
        private struct Held {
            weak var sender: AlertSender?
        }

        private let held = Mutex(Held())

        func connect(_ sender: AlertSender) { held.withLock { $0.sender = sender } }

        func wake() { held.withLock { $0.sender }?.wake() }
    }

    /// libcurl's SMTP when `--smtp-url` is set, else the Maildir of `--mail-dir`.
    static func transport(_ configuration: AppConfiguration) throws -> any MailTransport {
        if let url = configuration.smtpURL {
            let tls = configuration.smtpTLS.flatMap { SMTPSettings.TLS(rawValue: $0.rawValue) }
            do {
                return try SMTPTransport(settings: SMTPSettings(url: url, tls: tls, timeoutSeconds: configuration.smtpTimeoutSeconds))
            } catch {
                throw StartupError(setting: "--smtp-url / PETSPOT_SMTP_URL", problem: "\(error)")
            }
        }
        do {
            return try MaildirTransport(folder: URL(fileURLWithPath: configuration.mailDirectory))
        } catch {
            throw StartupError(setting: "--mail-dir / PETSPOT_MAIL_DIR", problem: "\(error)")
        }
    }

    /// `--mail-from`, or `PetSpot <alerts@HOST>`.
    static func sender(_ text: String?, authority: String) -> MailAddress {
        guard let text, !text.isEmpty else { return MailAddress("alerts@\(authority)", displayName: "PetSpot") }
        if let open = text.lastIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            let name = text[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return MailAddress(String(text[text.index(after: open)..<close]), displayName: name.isEmpty ? nil : name)
        }
        return MailAddress(text, displayName: "PetSpot")
    }

    /// The DKIM signer of `--dkim-selector` and `--dkim-key`, or nil when neither is set.
    static func signer(_ configuration: AppConfiguration, domain: String) throws -> DKIMSigner? {
        switch (configuration.dkimSelector, configuration.dkimKeyFile) {
        case (nil, nil): return nil
        case (let selector?, let file?):
            do {
                let pem = try String(contentsOfFile: file, encoding: .utf8)
                return try DKIMSigner(domain: domain, selector: selector, privateKeyPEM: pem)
            } catch {
                throw StartupError(setting: "--dkim-key / PETSPOT_DKIM_KEY", problem: "the key in '\(file)' cannot be used: \(error)")
            }
        default:
            throw StartupError(setting: "--dkim-selector / PETSPOT_DKIM_SELECTOR", problem: "set both --dkim-selector and --dkim-key, or neither")
        }
    }
}
