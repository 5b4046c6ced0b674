import Foundation
import Synchronization

/// The write store in this process's memory: right for one replica only (docs/replicas.md). It is the
/// default, so the README's first command needs no database; with several replicas each would keep its
/// own submissions and limits, which is what `--database-url` is for.
public final class MemoryWriteStore: WriteStore {
    private struct Submission {
        var phase: Phase
        var owner: String
        var leaseUntil: ContinuousClock.Instant
        var expires: ContinuousClock.Instant
        var fingerprint: [UInt8]
        var record: SubmissionRecord?
        let isRetry: Bool
        let order: Int
    }

    private enum Phase { case checking, sending, created }

    private struct State {
        var submissions: [[UInt8]: Submission] = [:]
        var counter = 0
        /// Per bucket and key: the instants of the slots taken, with their tokens.
        var hits: [String: [(instant: ContinuousClock.Instant, token: String)]] = [:]
    }

    private let state = Mutex(State())
    private let photos: ExpiringStore<StoredPhoto>
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lease: Duration
    private let lifetime: Duration
    private let maxSubmissions: Int
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
        photos = ExpiringStore(lifetime: lifetime, maxBytes: photoBytes, maxEntries: maxPhotos, now: now)
        self.now = now
        self.lease = lease
        self.lifetime = lifetime
        self.maxSubmissions = maxSubmissions
        self.maxLimitKeys = maxLimitKeys
    }

    public func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        let instant = now()
        return state.withLock { state in
            if let entry = state.submissions[key.hash], entry.expires > instant {
                switch entry.phase {
                case .created:
                    if let record = entry.record { return .created(record, fingerprint: entry.fingerprint) }
                case .sending:
                    return entry.leaseUntil > instant ? .inProgress(fingerprint: entry.fingerprint) : .unknownOutcome(fingerprint: entry.fingerprint)
                case .checking:
                    if entry.leaseUntil > instant { return .inProgress(fingerprint: entry.fingerprint) }
                }
            }
            let owner = SubmissionSeal.newOwner()
            state.counter += 1
            state.submissions[key.hash] = Submission(
                phase: .checking,
                owner: owner,
                leaseUntil: instant + lease,
                expires: instant + lifetime,
                fingerprint: fingerprint,
                record: nil,
                isRetry: key.isRetry,
                order: state.counter
            )
            evict(&state, at: instant)
            return .owned(owner: owner)
        }
    }

    public func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        let instant = now()
        return state.withLock { state in
            guard var entry = state.submissions[key.hash], entry.owner == owner, entry.phase != .created, entry.leaseUntil > instant else {
                return false
            }
            entry.leaseUntil = instant + lease
            state.submissions[key.hash] = entry
            return true
        }
    }

    public func markSending(_ key: SubmissionKey, owner: String) async throws -> Bool {
        state.withLock { state in
            guard var entry = state.submissions[key.hash], entry.owner == owner, entry.phase == .checking else { return false }
            entry.phase = .sending
            state.submissions[key.hash] = entry
            return true
        }
    }

    public func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        let instant = now()
        state.withLock { state in
            guard var entry = state.submissions[key.hash], entry.owner == owner else { return }
            entry.phase = .created
            entry.record = record
            entry.expires = instant + lifetime
            state.submissions[key.hash] = entry
        }
    }

    public func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        let instant = now()
        state.withLock { state in
            guard var entry = state.submissions[key.hash], entry.owner == owner, entry.phase != .created else { return }
            entry.phase = .sending
            entry.leaseUntil = instant
            state.submissions[key.hash] = entry
        }
    }

    public func release(_ key: SubmissionKey, owner: String) async throws {
        state.withLock { state in
            guard let entry = state.submissions[key.hash], entry.owner == owner, entry.phase != .created else { return }
            state.submissions.removeValue(forKey: key.hash)
        }
    }

    public func markPhotoUploaded(_ key: SubmissionKey) async throws {
        state.withLock { state in
            guard var entry = state.submissions[key.hash], entry.record != nil else { return }
            entry.record?.photoUploaded = true
            entry.record?.keptPhoto = nil
            state.submissions[key.hash] = entry
        }
    }

    public func forgetRetries(petID: String) async throws {
        state.withLock { state in
            state.submissions = state.submissions.filter { !($0.value.isRetry && $0.value.record?.petID == petID) }
        }
    }

    public func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        photos.put(photo, bytes: photo.jpeg.count, reference: reference)
    }

    public func keptPhoto(_ reference: String) async throws -> StoredPhoto? { photos.get(reference) }

    public func dropPhoto(_ reference: String) async throws { photos.remove(reference) }

    public func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        guard rule.limit > 0 else { return .granted(token: "") }
        let instant = now()
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
            if state.hits.count > maxLimitKeys {
                state.hits = state.hits.filter { $0.value.contains { instant - $0.instant < rule.window } }
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
    public var submissionCount: Int { state.withLock { $0.submissions.count } }

    /// Whole seconds for a `Retry-After` header (at least 1).
    public static func seconds(_ duration: Duration) -> Int {
        max(1, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)))
    }

    private func evict(_ state: inout State, at instant: ContinuousClock.Instant) {
        guard state.submissions.count > maxSubmissions else { return }
        state.submissions = state.submissions.filter { $0.value.expires > instant }
        while state.submissions.count > maxSubmissions, let oldest = state.submissions.min(by: { $0.value.order < $1.value.order }) {
            state.submissions.removeValue(forKey: oldest.key)
        }
    }
}
