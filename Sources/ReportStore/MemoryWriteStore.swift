import Caching
import Foundation
import Synchronization

/// The write store in this process's memory: right for one replica only (docs/replicas.md). It is the
/// default, so the README's first command needs no database; with several replicas each would keep its
/// own submissions and limits, which is what `--database-url` is for.
public final class MemoryWriteStore: WriteStore {
    private struct Submission: Sendable {
        var phase: Phase
        var owner: String
        var leaseUntil: ContinuousClock.Instant
        var fingerprint: [UInt8]
        var record: SubmissionRecord?
        let isRetry: Bool
    }

    private enum Phase { case checking, sending, created }

    private struct State {
        var counter = 0
        /// Per bucket and key: the instants of the slots taken, with their tokens.
        var hits: [String: [(instant: ContinuousClock.Instant, token: String)]] = [:]
        /// Each bucket's window, as its rule last said: the prune keeps a key's hits for its own bucket's
        /// window, not the window of the rule that happened to trigger it.
        var windows: [String: Duration] = [:]
    }

    /// The rate limits' windows.
    private let state = Mutex(State())
    /// Each submitted form's attempt by the hash of its reference, for one `lifetime` (expired
    /// first, then the least recently used go when `maxSubmissions` is passed).
    private let submissions: ExpiringMap<[UInt8], Submission>
    /// Refused reports' photos by reference, for one `lifetime`, within `photoBytes`.
    private let photos: ExpiringMap<String, StoredPhoto>
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lease: Duration
    private let lifetime: Duration
    private let maxLimitKeys: Int

    /// `photoBytes` is the kept photos' budget (`--report-photo-cache-mb`); `lease`, how long an attempt
    /// owns its submission before another may take it over.
    public init(
        photoBytes: Int,
        maxPhotos: Int = 10_000,
        lease: Duration = SubmissionLease.duration,
        lifetime: Duration = .seconds(3600),
        maxSubmissions: Int = 20_000,
        maxLimitKeys: Int = 100_000,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        photos = ExpiringMap(maxEntries: maxPhotos, maxBytes: photoBytes, now: now)
        submissions = ExpiringMap(maxEntries: maxSubmissions, now: now)
        self.now = now
        self.lease = lease
        self.lifetime = lifetime
        self.maxLimitKeys = maxLimitKeys
    }

    public func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        let instant = now()
        return submissions.modify(key.hash) { kept -> Claim in
            if let entry = kept, entry.expires > instant {
                switch entry.value.phase {
                case .created:
                    if let record = entry.value.record { return .created(record, fingerprint: entry.value.fingerprint) }
                case .sending:
                    let fingerprint = entry.value.fingerprint
                    return entry.value.leaseUntil > instant ? .inProgress(fingerprint: fingerprint) : .unknownOutcome(fingerprint: fingerprint)
                case .checking:
                    if entry.value.leaseUntil > instant { return .inProgress(fingerprint: entry.value.fingerprint) }
                }
            }
            let owner = SubmissionSeal.newOwner()
            let submission = Submission(
                phase: .checking,
                owner: owner,
                leaseUntil: instant + lease,
                fingerprint: fingerprint,
                record: nil,
                isRetry: key.isRetry
            )
            kept = .init(value: submission, expires: instant + lifetime)
            return .owned(owner: owner)
        }
    }

    public func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        let instant = now()
        return submissions.modify(key.hash) { kept in
            guard let entry = kept?.value, entry.owner == owner, entry.phase != .created, entry.leaseUntil > instant else {
                return false
            }
            kept?.value.leaseUntil = instant + lease
            return true
        }
    }

    public func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        let instant = now()
        // The submission's lock held across the take (the limits' lock is only ever taken inside it), so a lost
        // attempt takes no slot and a slot is never taken for an attempt another one took over meanwhile.
        return submissions.modify(key.hash) { kept -> SendingStart in
            guard let entry = kept?.value, entry.owner == owner, entry.phase == .checking else { return .lost }
            switch take(rule, key: limitKey, at: instant) {
            case .refused(let seconds): return .refused(retryAfter: seconds)
            case .granted(let token):
                kept?.value.phase = .sending
                kept?.value.leaseUntil = instant + lease
                return .sending(token: token)
            }
        }
    }

    public func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        let instant = now()
        submissions.modify(key.hash) { kept in
            guard let entry = kept?.value, entry.owner == owner else { return }
            kept?.value.phase = .created
            kept?.value.record = record
            kept?.expires = instant + lifetime
        }
    }

    public func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        let instant = now()
        submissions.modify(key.hash) { kept in
            guard let entry = kept?.value, entry.owner == owner, entry.phase != .created else { return }
            kept?.value.phase = .sending
            kept?.value.leaseUntil = instant
        }
    }

    public func release(_ key: SubmissionKey, owner: String) async throws {
        submissions.modify(key.hash) { kept in
            guard let entry = kept?.value, entry.owner == owner, entry.phase != .created else { return }
            kept = nil
        }
    }

    public func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        if let key {
            submissions.modify(key.hash) { kept in
                guard kept?.value.record != nil else { return }
                kept?.value.record?.photoUploaded = true
                kept?.value.record?.keptPhoto = nil
            }
        }
        if let keptPhoto { photos.remove(keptPhoto) }
        try await forgetRetries(petID: petID)
    }

    public func forgetRetries(petID: String) async throws {
        submissions.removeAll { _, entry in entry.value.isRetry && entry.value.record?.petID == petID }
    }

    public func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        // A photo larger than the whole budget is not kept (the map would keep it alone).
        guard photo.jpeg.count <= photos.maxBytes else { return }
        photos.put(photo, for: reference, bytes: photo.jpeg.count, expires: now() + lifetime)
    }

    public func keptPhoto(_ reference: String) async throws -> StoredPhoto? { photos.value(for: reference) }

    public func dropPhoto(_ reference: String) async throws { photos.remove(reference) }

    public func take(_ rule: LimitRule, key: String) async throws -> LimitTake { take(rule, key: key, at: now()) }

    private func take(_ rule: LimitRule, key: String, at instant: ContinuousClock.Instant) -> LimitTake {
        guard rule.limit > 0 else { return .granted(token: "") }
        let name = rule.bucket + "\u{0}" + key
        return state.withLock { state in
            var recent = (state.hits[name] ?? []).filter { instant - $0.instant < rule.window }
            if recent.count >= rule.limit, let oldest = recent.first {
                state.hits[name] = recent
                return .refused(retryAfter: MemoryWriteStore.seconds(rule.window - (instant - oldest.instant)))
            }
            state.counter += 1
            let token = String(state.counter)
            recent.append((instant, token))
            state.hits[name] = recent
            state.windows[rule.bucket] = rule.window
            if state.hits.count > maxLimitKeys {
                let windows = state.windows
                state.hits = state.hits.filter { name, hits in
                    let bucket = String(name.prefix { $0 != "\u{0}" })
                    let window = windows[bucket] ?? rule.window
                    return hits.contains { instant - $0.instant < window }
                }
            }
            return .granted(token: token)
        }
    }

    public func refund(_ rule: LimitRule, key: String, token: String) async throws {
        let name = rule.bucket + "\u{0}" + key
        state.withLock { state in
            state.hits[name]?.removeAll { $0.token == token }
        }
    }

    public func announce(petID: String) async throws {}

    /// Submissions held (for tests).
    public var submissionCount: Int { submissions.size.entries }

    /// Whole seconds for a `Retry-After` header (at least 1).
    public static func seconds(_ duration: Duration) -> Int {
        max(1, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)))
    }
}
