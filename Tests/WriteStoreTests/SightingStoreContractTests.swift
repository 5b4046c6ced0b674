import Foundation
import PetSpotPostgres
import Sightings
import Testing

/// One contract, both sighting stores (docs/sightings.md "The store"): what the owner's page, its cookie and
/// reunions rely on when several replicas share them.
@Suite("Sighting store contract")
struct SightingStoreContractTests {
    @Test(arguments: AlertStoreKind.allCases)
    func sightings_come_newest_first_with_their_photo_for_their_own_pet_only(kind: AlertStoreKind) async throws {
        try await withSightingStore(kind) { store in
            let photo = SightingPhoto(jpeg: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3], width: 640, height: 480)
            let older = sighting("a", pet: "p1", seenMinutesAgo: 90)
            let newer = sighting("b", pet: "p1", seenMinutesAgo: 5, contact: "+48 600 100 200", photo: photo.info)
            let elsewhere = sighting("c", pet: "p2", seenMinutesAgo: 1)
            try await store.add(older, photo: nil)
            try await store.add(newer, photo: photo)
            try await store.add(elsewhere, photo: nil)

            let listed = try await store.sightings(petID: "p1", limit: 10)
            #expect(listed.map(\.id) == [newer.id, older.id])
            #expect(listed.first == newer)
            #expect(listed.first?.photo == photo.info)
            #expect(try await store.sightings(petID: "p1", limit: 1).map(\.id) == [newer.id])
            #expect(try await store.photo(sightingID: newer.id, petID: "p1") == photo)
            #expect(try await store.photo(sightingID: newer.id, petID: "p2") == nil, "a photo is read through its own pet only")
            #expect(try await store.photo(sightingID: older.id, petID: "p1") == nil)
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func access_opens_one_pet_until_it_expires_or_is_closed(kind: AlertStoreKind) async throws {
        try await withSightingStore(kind) { store in
            let token = try await store.openAccess(petID: "p1", now: start)
            #expect(token.count == 32)
            #expect(try await store.hasAccess(token: token, petID: "p1", now: start.addingTimeInterval(60)))
            #expect(try await store.hasAccess(token: token, petID: "p2", now: start.addingTimeInterval(60)) == false)
            #expect(try await store.hasAccess(token: String(token.reversed()), petID: "p1", now: start) == false)
            #expect(try await store.hasAccess(token: token, petID: "p1", now: start.addingTimeInterval(SightingRules.accessFor + 1)) == false)

            let second = try await store.openAccess(petID: "p1", now: start)
            try await store.closeAccess(token: second)
            #expect(try await store.hasAccess(token: second, petID: "p1", now: start) == false)
            #expect(try await store.hasAccess(token: token, petID: "p1", now: start), "closing one token leaves the others")
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func a_reunion_keeps_its_first_time_and_is_undone_within_a_day_only(kind: AlertStoreKind) async throws {
        try await withSightingStore(kind) { store in
            #expect(try await store.reunion(petID: "p1") == nil)
            let first = try await store.markReunited(petID: "p1", now: start)
            let again = try await store.markReunited(petID: "p1", now: start.addingTimeInterval(3600))
            #expect(first == Reunion(petID: "p1", at: start))
            #expect(again == first)
            try await store.markReunited(petID: "p2", now: start)
            #expect(try await store.reunions() == [Reunion(petID: "p1", at: start), Reunion(petID: "p2", at: start)])

            #expect(try await store.undoReunited(petID: "p1", now: start.addingTimeInterval(SightingRules.undoWithin - 60)))
            #expect(try await store.reunion(petID: "p1") == nil)
            #expect(try await store.undoReunited(petID: "p1", now: start) == false, "nothing left to undo")
            #expect(try await store.undoReunited(petID: "p2", now: start.addingTimeInterval(SightingRules.undoWithin + 60)) == false)
            #expect(try await store.reunion(petID: "p2") == Reunion(petID: "p2", at: start))
        }
    }

    @Test(arguments: AlertStoreKind.allCases)
    func the_sweep_forgets_old_sightings_those_of_long_reunited_pets_and_spent_access(kind: AlertStoreKind) async throws {
        try await withSightingStore(kind) { store in
            let late = start.addingTimeInterval(SightingRules.keptAfterReunion + 3600)
            try await store.add(
                sighting("old", pet: "p1", seenMinutesAgo: 10, madeAt: late.addingTimeInterval(-SightingRules.keptFor - 60)),
                photo: nil
            )
            try await store.add(sighting("kept", pet: "p1", seenMinutesAgo: 10, madeAt: late.addingTimeInterval(-3600)), photo: nil)
            try await store.add(sighting("home", pet: "p2", seenMinutesAgo: 10, madeAt: start), photo: SightingPhoto(jpeg: [1], width: 1, height: 1))
            try await store.markReunited(petID: "p2", now: start)
            let spent = try await store.openAccess(petID: "p1", now: start)
            let live = try await store.openAccess(petID: "p1", now: late)

            #expect(try await store.sweep(now: late) == 2)
            #expect(try await store.sightings(petID: "p1", limit: 10).map(\.id) == [sighting("kept", pet: "p1", seenMinutesAgo: 10).id])
            #expect(try await store.sightings(petID: "p2", limit: 10).isEmpty)
            #expect(try await store.photo(sightingID: sighting("home", pet: "p2", seenMinutesAgo: 10).id, petID: "p2") == nil)
            #expect(try await store.hasAccess(token: spent, petID: "p1", now: start) == false, "a spent token is gone, not only expired")
            #expect(try await store.hasAccess(token: live, petID: "p1", now: late))
        }
    }
}

/// Two replicas on one database, and what only the shared store does.
@Suite("Sighting store in PostgreSQL")
struct PostgresSightingStoreTests {
    @Test func two_replicas_see_each_others_sightings_access_and_reunions() async throws {
        try await withAlertDatabase { url in
            try await withMigratedWriteStore(url) { first, logger in
                try await withMigratedWriteStore(url) { second, _ in
                    let a = PostgresSightingStore(sharing: first, logger: logger)
                    let b = PostgresSightingStore(sharing: second, logger: logger)
                    try await a.add(sighting("x", pet: "p1", seenMinutesAgo: 3), photo: nil)
                    let token = try await a.openAccess(petID: "p1", now: start)
                    try await a.markReunited(petID: "p1", now: start)
                    #expect(try await b.sightings(petID: "p1", limit: 5).map(\.id) == [sighting("x", pet: "p1", seenMinutesAgo: 3).id])
                    #expect(try await b.hasAccess(token: token, petID: "p1", now: start))
                    #expect(try await b.reunion(petID: "p1") == Reunion(petID: "p1", at: start))
                }
            }
        }
    }

    @Test func a_store_whose_schema_is_not_in_place_fails_closed() async throws {
        try await withAlertDatabase { url in
            try await withMigratedWriteStore(url) { writeStore, logger in
                let store = PostgresSightingStore(client: writeStore.sharedClient, replica: "r", ready: { false }, logger: logger)
                await #expect(throws: SightingStoreUnavailable.self) { try await store.reunions() }
            }
        }
    }
}

/// Whole seconds, so the database's microseconds keep times exact.
private let start = Date(timeIntervalSince1970: 1_764_583_200)

/// A sighting with an id made from `name` (32 hex digits, as `AlertTokens.newID` makes them).
private func sighting(
    _ name: String,
    pet: String,
    seenMinutesAgo: Double,
    contact: String? = nil,
    photo: SightingPhotoInfo? = nil,
    madeAt: Date = start
) -> Sighting {
    let hex = name.utf8.map { String($0, radix: 16) }.joined()
    return Sighting(
        id: String((hex + String(repeating: "0", count: 32)).prefix(32)),
        petID: pet,
        seenAt: madeAt.addingTimeInterval(-seenMinutesAgo * 60),
        latitude: 51.1,
        longitude: 17.03,
        placeName: "Krzyki, Wrocław",
        note: "ran east along the river <b>\(name)</b>",
        contact: contact,
        photo: photo,
        createdAt: madeAt
    )
}

/// Runs `body` with a fresh sighting store of `kind` (the PostgreSQL one on a database of its own).
private func withSightingStore(_ kind: AlertStoreKind, _ body: (any SightingStore) async throws -> Void) async throws {
    switch kind {
    case .memory:
        try await body(MemorySightingStore())
    case .postgres:
        try await withAlertDatabase { url in
            try await withMigratedWriteStore(url) { writeStore, logger in try await body(PostgresSightingStore(sharing: writeStore, logger: logger)) }
        }
    }
}
