import Alerts
import Foundation
import PetDomain
import PetSpotPostgres
import Testing

/// One contract, both alert stores: what alerts rely on when several replicas see the same pets and send
/// from the same outbox (docs/alerts-store.md, product spec §9).
@Suite("Alert store contract")
struct AlertStoreContractTests {
    // MARK: - Subscribing

    @Test(arguments: AlertStoreKind.allCases)
    func a_confirmation_mail_is_claimed_once(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try #require(try await store.subscribe(searchRequest("ada@example.org"), now: winterNoon))
            #expect(subscription.state == .pending)

            let mails = try await store.claimDue(now: winterNoon, limit: 10)
            let again = try await store.claimDue(now: winterNoon, limit: 10)

            #expect(mails.map(\.kind) == [.confirm])
            #expect(mails.first?.subscription.id == subscription.id)
            #expect(again.isEmpty)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func the_same_request_while_active_queues_nothing(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let active = try await activeSubscription(store, searchRequest("ada@example.org"), now: winterNoon)
            #expect(active.state == .active)

            #expect(try await store.subscribe(searchRequest("ada@example.org"), now: minutes(1, after: winterNoon)) == nil)
            #expect(try await store.subscribe(searchRequest(" ADA@example.org"), now: minutes(2, after: winterNoon)) == nil)
            #expect(try await store.claimDue(now: minutes(3, after: winterNoon), limit: 10).isEmpty)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_fourth_confirmation_in_a_day_is_not_sent(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            for attempt in 0..<3 {
                #expect(try await store.subscribe(searchRequest("bob@example.org"), now: minutes(Double(attempt), after: winterNoon)) != nil)
            }

            let fourth = try await store.subscribe(searchRequest("bob@example.org", rangeKm: 10), now: minutes(10, after: winterNoon))
            let nextDay = try await store.subscribe(searchRequest("bob@example.org"), now: minutes(24 * 60 + 1, after: winterNoon))

            #expect(fourth == nil)
            #expect(nextDay != nil)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func an_address_that_said_never_again_is_never_subscribed(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try #require(try await store.subscribe(searchRequest("eve@example.org"), now: winterNoon))
            _ = try await store.claimDue(now: winterNoon, limit: 10)

            try await store.neverAgain(addressHash: subscription.addressHash)

            #expect(try await store.subscribe(searchRequest("eve@example.org"), now: minutes(1, after: winterNoon)) == nil)
            #expect(try await store.subscribe(searchRequest("Eve@example.org", rangeKm: 50), now: minutes(60 * 24 * 40, after: winterNoon)) == nil)
            #expect(try await store.claimDue(now: minutes(60 * 24 * 41, after: winterNoon), limit: 10).isEmpty)
        }
    }

    // MARK: - Pets seen

    @Test(arguments: AlertStoreKind.allCases)
    func a_pet_is_owed_once_from_the_second_list_on(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let first = try await store.recordSeen(petIDs: ["a", "b"], now: winterNoon)
            let second = try await store.recordSeen(petIDs: ["a", "b", "c"], now: minutes(1, after: winterNoon))
            let third = try await store.recordSeen(petIDs: ["a", "b", "c"], now: minutes(2, after: winterNoon))
            let shortList = try await store.recordSeen(petIDs: ["a"], now: minutes(3, after: winterNoon))
            let cameBack = try await store.recordSeen(petIDs: ["a", "b", "c", "d"], now: minutes(4, after: winterNoon))

            #expect(first.isEmpty)
            #expect(second == ["c"])
            #expect(third.isEmpty)
            #expect(shortList.isEmpty)
            #expect(cameBack == ["d"])
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_pet_is_owed_once_whatever_replica_sees_it(kind: AlertStoreKind) async throws {
        let ids = (0..<300).map { "pet-\($0)" }
        let check: (any AlertStore, any AlertStore) async throws -> Void = { one, other in
            _ = try await one.recordSeen(petIDs: ["seed"], now: winterNoon)
            async let left = one.recordSeen(petIDs: ids, now: minutes(1, after: winterNoon))
            async let right = other.recordSeen(petIDs: ids.reversed(), now: minutes(1, after: winterNoon))
            let (a, b) = try await (left, right)
            #expect(Set(a).isDisjoint(with: b))
            #expect(Set(a + b) == Set(ids))
            #expect(a.count + b.count == ids.count)
        }
        switch kind {
        case .memory:
            let store = MemoryAlertStore()
            try await check(store, store)
        case .postgres:
            // Two stores with two pools on one database: two replicas.
            try await withAlertDatabase { url in
                try await withPostgresAlertStore(url) { one in try await withPostgresAlertStore(url) { other in try await check(one, other) } }
            }
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func an_unfinished_fan_out_is_handed_out_again_after_a_minute(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            _ = try await store.recordSeen(petIDs: ["seed"], now: winterNoon)
            #expect(try await store.recordSeen(petIDs: ["x", "y"], now: winterNoon) == ["x", "y"])
            try await store.finishFanOut(petIDs: ["x"])

            let early = try await store.unfinishedFanOuts(now: winterNoon.addingTimeInterval(59))
            let late = try await store.unfinishedFanOuts(now: winterNoon.addingTimeInterval(61))
            let again = try await store.unfinishedFanOuts(now: winterNoon.addingTimeInterval(62))

            #expect(early.isEmpty)
            #expect(late == ["y"])
            #expect(again.isEmpty)
        }
    }

    // MARK: - Areas

    @Test(arguments: AlertStoreKind.allCases)
    func an_area_search_holds_the_points_within_its_radius_and_filters(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let wide = try await activeSubscription(store, searchRequest("a@example.org", rangeKm: 5), now: winterNoon)
            let narrow = try await activeSubscription(store, searchRequest("b@example.org", rangeKm: 1), now: winterNoon)
            let cats = try await activeSubscription(store, searchRequest("c@example.org", rangeKm: 10, species: .cat), now: winterNoon)
            let found = try await activeSubscription(store, searchRequest("d@example.org", rangeKm: 50, status: .found), now: winterNoon)
            let krakow = try await activeSubscription(store, searchRequest("e@example.org", rangeKm: 50, at: (50.0647, 19.945)), now: winterNoon)
            _ = try await store.subscribe(searchRequest("pending@example.org", rangeKm: 50), now: winterNoon)

            // About 3.3 km north of the centre (0.03° of latitude).
            let missingDog = try await store.searchesContaining(latitude: 52.2597, longitude: 21.0122, status: "missing", species: "dog")
            let foundCat = try await store.searchesContaining(latitude: 52.2597, longitude: 21.0122, status: "found", species: "cat")
            // About 45 km west: only the 50 km searches reach it.
            let far = try await store.searchesContaining(latitude: 52.2297, longitude: 20.35, status: "found", species: "dog")

            #expect(Set(missingDog.map(\.id)) == [wide.id])
            #expect(Set(foundCat.map(\.id)) == [wide.id, cats.id, found.id])
            #expect(far.map(\.id) == [found.id])
            #expect(!missingDog.contains { $0.id == narrow.id || $0.id == krakow.id })
        }
    }

    // MARK: - Owing and the schedule

    @Test(arguments: AlertStoreKind.allCases)
    func a_pair_owed_twice_counts_once(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("a@example.org"), now: winterNoon)

            let first = try await store.owe([(subscription.id, "p1"), (subscription.id, "p2")], now: winterNoon)
            let second = try await store.owe([(subscription.id, "p1")], now: minutes(1, after: winterNoon))

            #expect(first == 2)
            #expect(second == 0)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func an_instant_subscription_waits_ten_minutes_after_its_last_mail(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("a@example.org"), now: winterNoon)
            try await store.owe([(subscription.id, "p1")], now: winterNoon)
            let firstMail = try await store.claimDue(now: winterNoon, limit: 10)
            try await store.markSent(mailID: try #require(firstMail.first).id, now: winterNoon)

            try await store.owe([(subscription.id, "p2")], now: minutes(1, after: winterNoon))
            let tooEarly = try await store.claimDue(now: winterNoon.addingTimeInterval(599), limit: 10)
            let onTime = try await store.claimDue(now: winterNoon.addingTimeInterval(600), limit: 10)

            #expect(firstMail.map(\.petIDs) == [["p1"]])
            #expect(tooEarly.isEmpty)
            #expect(onTime.map(\.petIDs) == [["p2"]])
            #expect(onTime.map(\.kind) == [.alert])
        }
    }

    @Test(arguments: AlertStoreKind.allCases, DigestMorning.allCases)
    func a_daily_digest_is_due_at_the_next_eight_in_warsaw(kind: AlertStoreKind, morning: DigestMorning) async throws {
        let (now, due) = (morning.now, morning.due)
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("a@example.org", frequency: .daily), now: now)
            try await store.owe([(subscription.id, "p1"), (subscription.id, "p2")], now: now)

            let before = try await store.claimDue(now: due.addingTimeInterval(-1), limit: 10)
            let at = try await store.claimDue(now: due, limit: 10)

            #expect(before.isEmpty)
            #expect(at.map(\.kind) == [.digest])
            #expect(at.map(\.petIDs) == [["p1", "p2"]])
        }
    }

    // MARK: - The outbox

    @Test(arguments: AlertStoreKind.allCases)
    func a_claimed_mail_is_claimed_again_only_after_its_lease_with_the_same_pets(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("a@example.org"), now: winterNoon)
            try await store.owe([(subscription.id, "p1"), (subscription.id, "p2")], now: winterNoon)
            let first = try #require(try await store.claimDue(now: winterNoon, limit: 10).first)

            // A pet owed meanwhile goes into a mail of its own: the claimed one's pets are fixed.
            try await store.owe([(subscription.id, "p3")], now: winterNoon.addingTimeInterval(1))
            let meanwhile = try await store.claimDue(now: winterNoon.addingTimeInterval(2), limit: 10)
            let afterLease = try await store.claimDue(now: winterNoon.addingTimeInterval(AlertSchedule.lease + 1), limit: 10)

            #expect(first.petIDs == ["p1", "p2"])
            #expect(meanwhile.map(\.petIDs) == [["p3"]])
            #expect(afterLease.map(\.id) == [first.id])
            #expect(afterLease.map(\.petIDs) == [["p1", "p2"]])
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_temporary_failure_is_retried_for_a_day_then_given_up(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("a@example.org"), now: winterNoon)
            try await store.owe([(subscription.id, "p1")], now: winterNoon)
            let mail = try #require(try await store.claimDue(now: winterNoon, limit: 10).first)

            try await store.markRetry(mailID: mail.id, retryAt: minutes(1, after: winterNoon), reason: "421 busy", now: winterNoon)
            let retried = try await store.claimDue(now: minutes(1, after: winterNoon), limit: 10)
            let late = minutes(25 * 60, after: winterNoon)
            try await store.markRetry(mailID: mail.id, retryAt: late, reason: "421 busy", now: minutes(2, after: winterNoon))
            let givenUp = try await store.claimDue(now: minutes(26 * 60, after: winterNoon), limit: 10)

            #expect(retried.map(\.id) == [mail.id])
            #expect(retried.map(\.attempts) == [1])
            #expect(givenUp.isEmpty)
            #expect(try await store.outboxState(now: late).owed == 0)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_refused_address_stops_all_its_subscriptions_until_confirmed_again(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let one = try await activeSubscription(store, searchRequest("gone@example.org"), now: winterNoon)
            let two = try await activeSubscription(store, searchRequest("gone@example.org", rangeKm: 25, frequency: .daily), now: winterNoon)
            try await store.owe([(one.id, "p1"), (two.id, "p1")], now: winterNoon)
            let mail = try #require(try await store.claimDue(now: winterNoon, limit: 10).first)

            try await store.markFailed(mailID: mail.id, reason: "550 no such user", refusedAddress: true, now: winterNoon)

            let reach = try await store.searchesContaining(latitude: warsaw.latitude, longitude: warsaw.longitude, status: "missing", species: "dog")
            #expect(reach.isEmpty)
            #expect(try await store.claimDue(now: minutes(60 * 24, after: winterNoon), limit: 10).isEmpty)
            #expect(try await store.owe([(one.id, "p2")], now: minutes(1, after: winterNoon)) == 0)

            let asked = try #require(try await store.subscribe(searchRequest("gone@example.org"), now: minutes(60 * 25, after: winterNoon)))
            let token = try await store.mintToken(subscriptionID: asked.id, purpose: .confirm, now: minutes(60 * 25, after: winterNoon))
            #expect(asked.id == one.id)
            #expect(try await store.confirm(token: token, now: minutes(60 * 25, after: winterNoon))?.state == .active)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_pending_subscription_is_swept_after_seven_days(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let pending = try #require(try await store.subscribe(searchRequest("late@example.org"), now: winterNoon))
            let token = try await store.mintToken(subscriptionID: pending.id, purpose: .confirm, now: winterNoon)

            try await store.sweep(now: winterNoon.addingTimeInterval(AlertSchedule.pendingFor - 1))
            let kept = try await store.subscription(token: token, purpose: .confirm)
            try await store.sweep(now: winterNoon.addingTimeInterval(AlertSchedule.pendingFor + 1))
            let swept = try await store.subscription(token: token, purpose: .confirm)

            #expect(kept?.id == pending.id)
            #expect(swept == nil)
            #expect(try await store.confirm(token: token, now: winterNoon.addingTimeInterval(AlertSchedule.pendingFor + 2)) == nil)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func forgetting_an_address_erases_everything_of_it(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let subscription = try await activeSubscription(store, searchRequest("forget@example.org"), now: winterNoon)
            let manage = try await store.mintToken(subscriptionID: subscription.id, purpose: .manage, now: winterNoon)
            let other = try await activeSubscription(store, searchRequest("stay@example.org"), now: winterNoon)
            try await store.owe([(subscription.id, "p1"), (other.id, "p1")], now: winterNoon)

            try await store.forget(addressHash: AlertTokens.addressHash("Forget@example.org "))

            let reach = try await store.searchesContaining(latitude: warsaw.latitude, longitude: warsaw.longitude, status: "missing", species: "dog")
            #expect(try await store.subscription(token: manage, purpose: .manage) == nil)
            #expect(reach.map(\.id) == [other.id])
            #expect(try await store.claimDue(now: winterNoon, limit: 10).map(\.subscription.id) == [other.id])
            #expect(try await store.outboxState(now: winterNoon).owed == 1)
            // Forgotten is not "never again": the address may ask anew, and it is a new subscription.
            #expect(try await store.subscribe(searchRequest("forget@example.org"), now: minutes(1, after: winterNoon))?.id != subscription.id)
        }
    }

    // MARK: - Sightings relayed to an owner (docs/sightings.md "The relay")

    @Test(arguments: AlertStoreKind.allCases)
    func an_owner_is_followed_without_a_confirmation_and_mailed_sightings_in_the_instant_gap(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let owner = try #require(try await store.followSightings(email: "owner@example.org", petID: "p1", language: "pl", now: winterNoon))
            #expect(owner.state == .active && owner.target == .sightings(petID: "p1") && owner.language == "pl")
            #expect(try await store.followSightings(email: " OWNER@example.org", petID: "p1", language: "en", now: winterNoon)?.id == owner.id)
            #expect(try await store.followSightings(email: "owner@example.org", petID: "p2", language: "en", now: winterNoon)?.id != owner.id)
            // No confirmation mail, and neither the fan-out's area look-up nor its report follows see it.
            #expect(try await store.claimDue(now: winterNoon, limit: 10).isEmpty)
            #expect(try await store.matchFollows().isEmpty)
            #expect(
                try await store.searchesContaining(latitude: warsaw.latitude, longitude: warsaw.longitude, status: "MISSING", species: "DOG").isEmpty
            )

            #expect(try await store.owe([(subscriptionID: owner.id, petID: "s1")], now: winterNoon) == 1)
            let first = try await store.claimDue(now: winterNoon, limit: 10)
            #expect(first.map(\.kind) == [.sighting] && first.first?.petIDs == ["s1"])
            try await store.markSent(mailID: try #require(first.first).id, now: winterNoon)
            try await store.owe(
                [(subscriptionID: owner.id, petID: "s2"), (subscriptionID: owner.id, petID: "s3")],
                now: minutes(2, after: winterNoon)
            )
            #expect(try await store.claimDue(now: minutes(5, after: winterNoon), limit: 10).isEmpty, "within 10 minutes of the last mail")
            let next = try await store.claimDue(now: minutes(10, after: winterNoon), limit: 10)
            #expect(next.map(\.kind) == [.sighting] && next.first?.petIDs == ["s2", "s3"])
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_stopped_relay_or_an_address_that_said_never_is_not_followed(kind: AlertStoreKind) async throws {
        try await withAlertStore(kind) { store in
            let owner = try #require(try await store.followSightings(email: "stop@example.org", petID: "p1", language: "en", now: winterNoon))
            try await store.stop(subscriptionID: owner.id)
            #expect(
                try await store.followSightings(email: "stop@example.org", petID: "p1", language: "en", now: minutes(1, after: winterNoon)) == nil
            )
            #expect(try await store.owe([(subscriptionID: owner.id, petID: "s1")], now: winterNoon) == 0)

            let pending = try #require(try await store.subscribe(searchRequest("never@example.org"), now: winterNoon))
            try await store.neverAgain(addressHash: pending.addressHash)
            #expect(try await store.followSightings(email: "never@example.org", petID: "p1", language: "en", now: winterNoon) == nil)
        }
    }
}

/// A time a digest is owed at, and the 08:00 in Warsaw it is due at (Warsaw is UTC+1 in winter, UTC+2 in summer).
enum DigestMorning: CaseIterable, Sendable, CustomTestStringConvertible {
    /// 11:00 in Warsaw on 15 January 2025: due the next morning, 07:00 UTC.
    case winter
    /// 07:00 in Warsaw on 15 July 2025: due the same morning, 06:00 UTC.
    case summer

    var testDescription: String { self == .winter ? "winter" : "summer" }
    var now: Date { Date(timeIntervalSince1970: self == .winter ? 1_736_935_200 : 1_752_555_600) }
    var due: Date { Date(timeIntervalSince1970: self == .winter ? 1_737_010_800 : 1_752_559_200) }
}
