import Foundation

/// Everything sightings and reunions keep (docs/sightings.md). Two implementations keep one contract
/// (`SightingStoreContractTests` runs on both): `MemorySightingStore`, this process's memory, for one replica;
/// `PostgresSightingStore` (target PetSpotPostgres), one PostgreSQL for every replica.
///
/// Every time is passed in (`now`), from the site's one wall clock (`DayClock` in WebApp). Every call may
/// throw `SightingStoreUnavailable`.
public protocol SightingStore: Sendable {
    /// Keeps a sighting and its photo.
    func add(_ sighting: Sighting, photo: SightingPhoto?) async throws
    /// The sightings of `petID`, newest `seenAt` first (ties: newest `createdAt`), at most `limit`.
    func sightings(petID: String, limit: Int) async throws -> [Sighting]
    /// The sightings of these ids that are still kept, in the order of `ids` (a relay mail's, fixed when it was claimed).
    func sightings(ids: [String]) async throws -> [Sighting]
    /// The photo of sighting `id`, only when it belongs to `petID` (the owner's page of that pet asks).
    func photo(sightingID: String, petID: String) async throws -> SightingPhoto?

    /// Opens the owner's page of `petID` for `SightingRules.accessFor`: a random token for the cookie,
    /// of which the store keeps only the hash.
    func openAccess(petID: String, now: Date) async throws -> String
    /// Whether `token` opens `petID`'s owner page at `now`.
    func hasAccess(token: String, petID: String, now: Date) async throws -> Bool
    /// Closes it (the owner's "sign out", or a reunion undone by someone else does not need it).
    func closeAccess(token: String) async throws

    /// Marks `petID` reunited at `now`; a pet already reunited keeps its first time. Returns the reunion.
    @discardableResult
    func markReunited(petID: String, now: Date) async throws -> Reunion
    /// Takes a reunion back when it is at most `SightingRules.undoWithin` old. Returns whether it was.
    func undoReunited(petID: String, now: Date) async throws -> Bool
    /// The reunion of `petID`, if any.
    func reunion(petID: String) async throws -> Reunion?
    /// Every reunion (one row per reunited pet: a few thousand at most), for the snapshot's filter.
    func reunions() async throws -> [Reunion]

    /// Forgets sightings `SightingRules.keptFor` after they were made or `keptAfterReunion` after their pet
    /// was reunited, and access tokens past their time. Returns how many sightings went.
    @discardableResult
    func sweep(now: Date) async throws -> Int
}
