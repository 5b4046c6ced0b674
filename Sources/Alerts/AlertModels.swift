import Foundation
import PetDomain

/// The search an area alert follows: the same canonical value as the search's Atom feed
/// (`FeedSearch` in WebApp: origin to 3 decimals, radius always stated, status and species), so a
/// page's feed and its alert are one search (docs/alerts.md "What is followed").
public struct AlertSearch: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// Whole kilometres, 1 to `AlertSearch.maxRangeKm`.
    public var rangeKm: Int
    public var status: AnnouncementStatus?
    public var species: Species?

    /// The largest radius an alert follows: wider areas are a newsletter of the country, not news of
    /// a neighbourhood (docs/alerts.md "What is followed"). The store's geographic search relies on it as its bound.
    public static let maxRangeKm = 50
    /// The radii the manage page offers (docs/alerts.md: flyers go out within about 5 km for a dog).
    public static let offeredRangesKm = [1, 2, 5, 10, 15, 25, 50]

    public init(latitude: Double, longitude: Double, rangeKm: Int, status: AnnouncementStatus?, species: Species?) {
        self.latitude = latitude
        self.longitude = longitude
        self.rangeKm = min(max(rangeKm, 1), AlertSearch.maxRangeKm)
        self.status = status
        self.species = species
    }

    /// The search's centre.
    public var centre: Coordinate? { Coordinate(latitude: latitude, longitude: longitude) }

    /// Whether `pet` is one this search shows: its filters, and its place within the radius.
    public func fits(_ pet: Announcement) -> Bool {
        if let status, pet.status != status { return false }
        if let species, pet.species != species { return false }
        guard let centre, let point = pet.place.coordinate else { return false }
        return point.distanceKm(to: centre) <= Double(rangeKm)
    }
}

/// What a subscription follows: an area search, the possible matches of one report (docs/matching.md), or the
/// sightings of one report, relayed to its owner (docs/sightings.md).
public enum AlertTarget: Sendable, Hashable {
    case search(AlertSearch)
    case matches(petID: String)
    /// The owner of report `petID`, at the announcement's own e-mail: made active without a confirmation (the
    /// owner gave the address for exactly this contact), stopped in one click as every alert.
    case sightings(petID: String)

    /// The store's name of the kind.
    public var kind: String {
        switch self {
        case .search: "search"
        case .matches: "matches"
        case .sightings: "sightings"
        }
    }

    /// The kind of the mails a subscription of this target owes at `frequency`.
    public func mailKind(_ frequency: AlertFrequency) -> MailKind {
        if case .sightings = self { return .sighting }
        return frequency == .daily ? .digest : .alert
    }
}

/// How often a subscription is mailed (docs/alerts.md "Frequency").
public enum AlertFrequency: String, Sendable, CaseIterable {
    /// At most one mail per `AlertSchedule.instantGap`; pets arriving meanwhile wait for the next.
    case instant
    /// One digest a day at `AlertSchedule.digestHour` Warsaw time.
    case daily
}

/// Where a subscription stands.
public enum SubscriptionState: String, Sendable {
    /// Asked for, not confirmed: only its confirmation mail is ever sent; removed after 7 days.
    case pending
    /// Confirmed: owed mails are sent.
    case active
    /// Stopped by its subscriber, or its address refused permanently: nothing is sent until it is
    /// asked for and confirmed again.
    case stopped
}

/// One subscription: an address, what it follows, how often, in which language.
public struct Subscription: Sendable, Equatable {
    /// A random id (32 hex digits); never shown in a URL (tokens are).
    public let id: String
    /// The address, as the visitor typed it (trimmed). Never logged, never in a URL or a metric.
    public var email: String
    public var target: AlertTarget
    public var frequency: AlertFrequency
    /// `en` or `pl`: the language of the page it was asked for on, and of its mails.
    public var language: String
    public var state: SubscriptionState
    public var createdAt: Date

    public init(
        id: String,
        email: String,
        target: AlertTarget,
        frequency: AlertFrequency,
        language: String,
        state: SubscriptionState,
        createdAt: Date
    ) {
        self.id = id
        self.email = email
        self.target = target
        self.frequency = frequency
        self.language = language
        self.state = state
        self.createdAt = createdAt
    }

    /// The hash every per-address record is kept under (`AlertTokens.addressHash`).
    public var addressHash: [UInt8] { AlertTokens.addressHash(email) }
}

/// What a visitor asks for with the subscribe form.
public struct SubscriptionRequest: Sendable {
    public var email: String
    public var target: AlertTarget
    public var frequency: AlertFrequency
    public var language: String

    public init(email: String, target: AlertTarget, frequency: AlertFrequency, language: String) {
        self.email = email
        self.target = target
        self.frequency = frequency
        self.language = language
    }
}

/// What a link's token lets its holder do (docs/alerts.md "Privacy and limits").
public enum TokenPurpose: String, Sendable {
    /// The confirmation mail's link: confirm the subscription.
    case confirm
    /// Every alert's and digest's link: manage, stop (one click, RFC 8058), forget the address.
    case manage
    /// The confirmation mail's "this was not me": never write to this address again.
    case never
}

/// The kinds of mail the outbox holds.
public enum MailKind: String, Sendable {
    case confirm
    case alert
    case digest
    /// Sightings relayed to a report's owner (`AlertTarget.sightings`); its `petIDs` are sighting ids.
    case sighting
}

/// A mail the outbox owes, claimed by one sender for `AlertSchedule.lease`.
public struct OwedMail: Sendable, Equatable {
    /// The outbox row's id: the mail's `Message-ID` is made from it, so a resend is recognisable.
    public let id: String
    public let kind: MailKind
    public let subscription: Subscription
    /// The pets it tells of (alerts and digests), oldest owed first.
    public let petIDs: [String]
    /// Sending attempts before this one.
    public let attempts: Int
    /// When the outbox first owed it: temporary failures are retried until 24 hours after.
    public let createdAt: Date

    public init(id: String, kind: MailKind, subscription: Subscription, petIDs: [String], attempts: Int, createdAt: Date) {
        self.id = id
        self.kind = kind
        self.subscription = subscription
        self.petIDs = petIDs
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// The outbox's depth for the metrics.
public struct OutboxState: Sendable, Equatable {
    /// Mails owed and not sent (due or not yet due).
    public var owed: Int
    /// How long the oldest due mail has waited, in seconds (0 when none is due).
    public var oldestDueSeconds: Double

    public init(owed: Int, oldestDueSeconds: Double) {
        self.owed = owed
        self.oldestDueSeconds = oldestDueSeconds
    }
}

/// The alert store is down or slower than its deadline: pages that need it fail closed (503).
public struct AlertStoreUnavailable: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "alert store unavailable during \(operation): \(detail)" }
}
