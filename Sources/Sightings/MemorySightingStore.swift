import Alerts
import Foundation
import Synchronization

/// Sightings and reunions in this process's memory: one replica, and the demo (docs/sightings.md "Without a
/// database"). A restart forgets them. The reference of `SightingStoreContractTests`.
public final class MemorySightingStore: SightingStore {
    private struct State {
        var sightings: [String: Sighting] = [:]
        var photos: [String: SightingPhoto] = [:]
        var reunions: [String: Reunion] = [:]
        /// Token hash → (pet, until).
        var access: [[UInt8]: (petID: String, until: Date)] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func add(_ sighting: Sighting, photo: SightingPhoto?) async throws {
        state.withLock {
            $0.sightings[sighting.id] = sighting
            if let photo { $0.photos[sighting.id] = photo }
        }
    }

    public func sightings(petID: String, limit: Int) async throws -> [Sighting] {
        let all = state.withLock { $0.sightings.values.filter { $0.petID == petID } }
        return Array(all.sorted(by: Self.newestFirst).prefix(max(limit, 0)))
    }

    public func sightings(ids: [String]) async throws -> [Sighting] {
        state.withLock { state in ids.compactMap { state.sightings[$0] } }
    }

    /// Newest `seenAt` first; ties by newest `createdAt`, then id, so both stores give one order.
    static func newestFirst(_ a: Sighting, _ b: Sighting) -> Bool {
        if a.seenAt != b.seenAt { return a.seenAt > b.seenAt }
        if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
        return a.id > b.id
    }

    public func photo(sightingID: String, petID: String) async throws -> SightingPhoto? {
        state.withLock { $0.sightings[sightingID]?.petID == petID ? $0.photos[sightingID] : nil }
    }

    public func openAccess(petID: String, now: Date) async throws -> String {
        let token = AlertTokens.make()
        state.withLock { $0.access[AlertTokens.digest(token)] = (petID, now.addingTimeInterval(SightingRules.accessFor)) }
        return token
    }

    public func hasAccess(token: String, petID: String, now: Date) async throws -> Bool {
        state.withLock { state in
            guard let entry = state.access[AlertTokens.digest(token)] else { return false }
            return entry.petID == petID && entry.until > now
        }
    }

    public func closeAccess(token: String) async throws {
        _ = state.withLock { $0.access.removeValue(forKey: AlertTokens.digest(token)) }
    }

    public func markReunited(petID: String, now: Date) async throws -> Reunion {
        state.withLock { state in
            if let kept = state.reunions[petID] { return kept }
            let reunion = Reunion(petID: petID, at: now)
            state.reunions[petID] = reunion
            return reunion
        }
    }

    public func undoReunited(petID: String, now: Date) async throws -> Bool {
        state.withLock { state in
            guard let kept = state.reunions[petID], kept.mayUndo(now: now) else { return false }
            state.reunions[petID] = nil
            return true
        }
    }

    public func reunion(petID: String) async throws -> Reunion? { state.withLock { $0.reunions[petID] } }

    public func reunions() async throws -> [Reunion] {
        state.withLock { Array($0.reunions.values) }.sorted { $0.petID < $1.petID }
    }

    public func sweep(now: Date) async throws -> Int {
        state.withLock { state in
            let gone = state.sightings.values.filter { sighting in
                if now.timeIntervalSince(sighting.createdAt) > SightingRules.keptFor { return true }
                guard let reunion = state.reunions[sighting.petID] else { return false }
                return now.timeIntervalSince(reunion.at) > SightingRules.keptAfterReunion
            }
            for sighting in gone {
                state.sightings[sighting.id] = nil
                state.photos[sighting.id] = nil
            }
            state.access = state.access.filter { $0.value.until > now }
            return gone.count
        }
    }
}
