import Foundation
import PetDomain
import Synchronization

/// The alert store of one replica: this process's memory (docs/alerts.md "Without a database"). Right
/// for the demo and for one replica; a restart forgets subscriptions and the pets seen, so the first list
/// after it owes nothing, as a fresh database's does.
public final class MemoryAlertStore: AlertStore {
    private struct Mail {
        let id: String
        let kind: MailKind
        let subscriptionID: String
        var due: Date
        var attempts: Int
        var leaseUntil: Date?
        var sentAt: Date?
        var failedAt: Date?
        let createdAt: Date
        /// The pets this mail tells of, fixed at its first claim (a resend tells the same).
        var petIDs: [String]?
        var isOpen: Bool { sentAt == nil && failedAt == nil }
    }

    private struct Owed {
        let petID: String
        let at: Date
        var mailID: String?
    }

    private struct State {
        var subscriptions: [String: Subscription] = [:]
        var lastMail: [String: Date] = [:]
        var tokens: [[UInt8]: (subscriptionID: String, purpose: TokenPurpose, at: Date)] = [:]
        var seen: Set<String> = []
        var everSaw = false
        var fanOuts: [String: Date] = [:]
        var owed: [String: [Owed]] = [:]
        var mails: [String: Mail] = [:]
        var never: Set<[UInt8]> = []
        var confirmations: [[UInt8]: [Date]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func subscribe(_ request: SubscriptionRequest, now: Date) async throws -> Subscription? {
        let hash = AlertTokens.addressHash(request.email)
        return state.withLock { state -> Subscription? in
            if state.never.contains(hash) { return nil }
            var subscription: Subscription
            if let known = state.subscriptions.values.first(where: { $0.addressHash == hash && $0.target == request.target }) {
                if known.state == .active { return nil }
                subscription = known
                subscription.frequency = request.frequency
                subscription.language = request.language
                subscription.state = .pending
            } else {
                subscription = Subscription(
                    id: AlertTokens.newID(),
                    email: request.email,
                    target: request.target,
                    frequency: request.frequency,
                    language: request.language,
                    state: .pending,
                    createdAt: now
                )
            }
            state.subscriptions[subscription.id] = subscription
            let recent = (state.confirmations[hash] ?? []).filter { now.timeIntervalSince($0) < AlertSchedule.confirmWindow }
            guard recent.count < AlertSchedule.confirmationsPerAddress else { return nil }
            state.confirmations[hash] = recent + [now]
            let mail = Mail(
                id: AlertTokens.newID(),
                kind: .confirm,
                subscriptionID: subscription.id,
                due: now,
                attempts: 0,
                createdAt: now,
                petIDs: []
            )
            state.mails[mail.id] = mail
            return subscription
        }
    }

    public func followSightings(email: String, petID: String, language: String, now: Date) async throws -> Subscription? {
        let hash = AlertTokens.addressHash(email)
        let target = AlertTarget.sightings(petID: petID)
        return state.withLock { state -> Subscription? in
            if state.never.contains(hash) { return nil }
            if let known = state.subscriptions.values.first(where: { $0.addressHash == hash && $0.target == target }) {
                return known.state == .active ? known : nil
            }
            let subscription = Subscription(
                id: AlertTokens.newID(),
                email: email,
                target: target,
                frequency: .instant,
                language: language,
                state: .active,
                createdAt: now
            )
            state.subscriptions[subscription.id] = subscription
            return subscription
        }
    }

    public func mintToken(subscriptionID: String, purpose: TokenPurpose, now: Date) async throws -> String {
        let token = AlertTokens.make()
        state.withLock { $0.tokens[AlertTokens.digest(token)] = (subscriptionID, purpose, now) }
        return token
    }

    public func subscription(token: String, purpose: TokenPurpose) async throws -> Subscription? {
        state.withLock { state in
            guard let entry = state.tokens[AlertTokens.digest(token)], entry.purpose == purpose else { return nil }
            return state.subscriptions[entry.subscriptionID]
        }
    }

    public func confirm(token: String, now: Date) async throws -> Subscription? {
        state.withLock { state in
            guard let entry = state.tokens[AlertTokens.digest(token)], entry.purpose == .confirm,
                var subscription = state.subscriptions[entry.subscriptionID]
            else { return nil }
            subscription.state = .active
            state.subscriptions[subscription.id] = subscription
            return subscription
        }
    }

    public func update(subscriptionID: String, frequency: AlertFrequency?, rangeKm: Int?, language: String?) async throws {
        state.withLock { state in
            guard var subscription = state.subscriptions[subscriptionID] else { return }
            if let frequency { subscription.frequency = frequency }
            if let language { subscription.language = language }
            if let rangeKm, case .search(var search) = subscription.target {
                search.rangeKm = min(max(rangeKm, 1), AlertSearch.maxRangeKm)
                subscription.target = .search(search)
            }
            state.subscriptions[subscriptionID] = subscription
        }
    }

    public func stop(subscriptionID: String) async throws {
        state.withLock { state in
            guard var subscription = state.subscriptions[subscriptionID] else { return }
            subscription.state = .stopped
            state.subscriptions[subscriptionID] = subscription
            MemoryAlertStore.dropOpenMails(of: [subscriptionID], in: &state)
        }
    }

    public func forget(addressHash: [UInt8]) async throws {
        state.withLock { MemoryAlertStore.erase(addressHash, in: &$0) }
    }

    public func neverAgain(addressHash: [UInt8]) async throws {
        state.withLock { state in
            MemoryAlertStore.erase(addressHash, in: &state)
            state.never.insert(addressHash)
        }
    }

    private static func erase(_ hash: [UInt8], in state: inout State) {
        let ids = Set(state.subscriptions.values.filter { $0.addressHash == hash }.map(\.id))
        for id in ids {
            state.subscriptions[id] = nil
            state.owed[id] = nil
            state.lastMail[id] = nil
        }
        state.mails = state.mails.filter { !ids.contains($0.value.subscriptionID) }
        state.tokens = state.tokens.filter { !ids.contains($0.value.subscriptionID) }
        state.confirmations[hash] = nil
    }

    private static func dropOpenMails(of ids: Set<String>, in state: inout State) {
        state.mails = state.mails.filter { !(ids.contains($0.value.subscriptionID) && $0.value.isOpen && $0.value.kind != .confirm) }
        for id in ids {
            state.owed[id] = state.owed[id]?.map {
                var owed = $0
                owed.mailID = owed.mailID ?? "dropped"
                return owed
            }
        }
    }

    public func recordSeen(petIDs: [String], now: Date) async throws -> [String] {
        state.withLock { state in
            let fresh = petIDs.filter { !state.seen.contains($0) }
            state.seen.formUnion(fresh)
            guard state.everSaw else {
                // The first list this store ever sees owes nothing: it is the service's starting point.
                state.everSaw = !petIDs.isEmpty
                return []
            }
            for id in fresh { state.fanOuts[id] = now }
            return fresh
        }
    }

    public func finishFanOut(petIDs: [String]) async throws {
        state.withLock { state in for id in petIDs { state.fanOuts[id] = nil } }
    }

    public func unfinishedFanOuts(now: Date) async throws -> [String] {
        state.withLock { state in
            let stale = state.fanOuts.filter { now.timeIntervalSince($0.value) > 60 }.map(\.key).sorted()
            for id in stale { state.fanOuts[id] = now }
            return stale
        }
    }

    public func searchesContaining(latitude: Double, longitude: Double, status: String, species: String) async throws -> [Subscription] {
        state.withLock { state in
            state.subscriptions.values.filter { subscription in
                guard subscription.state == .active, case .search(let search) = subscription.target else { return false }
                if let wanted = search.status, wanted.rawValue != status { return false }
                if let wanted = search.species, wanted.rawValue != species { return false }
                let point = AlertGeometry.distanceKm(search.latitude, search.longitude, latitude, longitude)
                return point <= Double(search.rangeKm)
            }
            .sorted { $0.createdAt < $1.createdAt }
        }
    }

    public func matchFollows() async throws -> [Subscription] {
        state.withLock { state in
            state.subscriptions.values.filter { subscription in
                guard subscription.state == .active, case .matches = subscription.target else { return false }
                return true
            }
        }
    }

    public func owe(_ pairs: [(subscriptionID: String, petID: String)], now: Date) async throws -> Int {
        state.withLock { state in
            var added = 0
            for (subscriptionID, petID) in pairs {
                guard let subscription = state.subscriptions[subscriptionID], subscription.state == .active else { continue }
                var owed = state.owed[subscriptionID] ?? []
                guard !owed.contains(where: { $0.petID == petID }) else { continue }
                owed.append(Owed(petID: petID, at: now, mailID: nil))
                state.owed[subscriptionID] = owed
                added += 1
                let kind = subscription.target.mailKind(subscription.frequency)
                let due = AlertSchedule.due(frequency: subscription.frequency, lastMail: state.lastMail[subscriptionID], now: now)
                if let open = state.mails.values.first(where: {
                    $0.subscriptionID == subscriptionID && $0.kind == kind && $0.isOpen && $0.petIDs == nil
                }) {
                    if due < open.due { state.mails[open.id]?.due = due }
                } else {
                    let mail = Mail(id: AlertTokens.newID(), kind: kind, subscriptionID: subscriptionID, due: due, attempts: 0, createdAt: now)
                    state.mails[mail.id] = mail
                }
            }
            return added
        }
    }

    public func claimDue(now: Date, limit: Int) async throws -> [OwedMail] {
        state.withLock { state in
            let due = state.mails.values.filter { $0.isOpen && $0.due <= now && ($0.leaseUntil.map { $0 <= now } ?? true) }
                .sorted { ($0.due, $0.id) < ($1.due, $1.id) }.prefix(limit)
            var claimed: [OwedMail] = []
            for var mail in due {
                guard let subscription = state.subscriptions[mail.subscriptionID] else {
                    state.mails[mail.id] = nil
                    continue
                }
                if mail.petIDs == nil {
                    // The pets are fixed at the first claim: a resend after a crash tells the same pets.
                    var owed = state.owed[mail.subscriptionID] ?? []
                    var pets: [String] = []
                    for index in owed.indices where owed[index].mailID == nil {
                        owed[index].mailID = mail.id
                        pets.append(owed[index].petID)
                    }
                    state.owed[mail.subscriptionID] = owed
                    mail.petIDs = pets
                }
                mail.leaseUntil = now.addingTimeInterval(AlertSchedule.lease)
                state.mails[mail.id] = mail
                claimed.append(
                    OwedMail(
                        id: mail.id,
                        kind: mail.kind,
                        subscription: subscription,
                        petIDs: mail.petIDs ?? [],
                        attempts: mail.attempts,
                        createdAt: mail.createdAt
                    )
                )
            }
            return claimed
        }
    }

    public func markSent(mailID: String, now: Date) async throws {
        state.withLock { state in
            guard let mail = state.mails[mailID] else { return }
            state.mails[mailID]?.sentAt = now
            state.mails[mailID]?.leaseUntil = nil
            if mail.kind != .confirm { state.lastMail[mail.subscriptionID] = now }
        }
    }

    public func markRetry(mailID: String, retryAt: Date, reason: String, now: Date) async throws {
        state.withLock { state in
            guard let mail = state.mails[mailID] else { return }
            if retryAt.timeIntervalSince(mail.createdAt) > AlertSchedule.retryFor {
                state.mails[mailID]?.failedAt = now
            } else {
                state.mails[mailID]?.due = retryAt
            }
            state.mails[mailID]?.attempts += 1
            state.mails[mailID]?.leaseUntil = nil
        }
    }

    public func markFailed(mailID: String, reason: String, refusedAddress: Bool, now: Date) async throws {
        state.withLock { state in
            guard let mail = state.mails[mailID] else { return }
            state.mails[mailID]?.failedAt = now
            state.mails[mailID]?.leaseUntil = nil
            guard refusedAddress, let hash = state.subscriptions[mail.subscriptionID]?.addressHash else { return }
            let ids = Set(state.subscriptions.values.filter { $0.addressHash == hash }.map(\.id))
            for id in ids { state.subscriptions[id]?.state = .stopped }
            MemoryAlertStore.dropOpenMails(of: ids, in: &state)
        }
    }

    public func outboxState(now: Date) async throws -> OutboxState {
        state.withLock { state in
            let open = state.mails.values.filter(\.isOpen)
            let oldest = open.filter { $0.due <= now }.map(\.due).min()
            return OutboxState(owed: open.count, oldestDueSeconds: oldest.map { now.timeIntervalSince($0) } ?? 0)
        }
    }

    public func sweep(now: Date) async throws {
        state.withLock { state in
            let expired = Set(
                state.subscriptions.values.filter { $0.state == .pending && now.timeIntervalSince($0.createdAt) > AlertSchedule.pendingFor }.map(\.id)
            )
            for id in expired {
                state.subscriptions[id] = nil
                state.owed[id] = nil
            }
            state.mails = state.mails.filter { !expired.contains($0.value.subscriptionID) }
            state.tokens = state.tokens.filter { !expired.contains($0.value.subscriptionID) }
        }
    }
}
