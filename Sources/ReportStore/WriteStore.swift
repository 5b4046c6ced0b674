import Foundation

/// Everything the write path (the report form, its photo retry, the API's writes) must share between
/// the replicas of one service (docs/replicas.md): who is making which submission and what it came to,
/// the photos kept while a form is corrected, and the limits. Two implementations keep one contract
/// (`WriteStoreContractTests` in the tests runs on both): `MemoryWriteStore`, this process's memory, for one
/// replica; `PostgresWriteStore` (target PetSpotPostgres), one PostgreSQL for every replica.
///
/// Reads never use it. Every call may throw `WriteStoreUnavailable` (the store is down or slower than
/// its deadline): the write path then fails closed (503, nothing sent upstream, the form kept).
public protocol WriteStore: Sendable {
    /// Claims `key` for a new attempt, atomically across replicas: `.owned` when this attempt may go on
    /// (no entry, or an expired one, or one whose attempt was refused and freed it), otherwise what the
    /// earlier attempt is or came to. `fingerprint` is remembered so a different body under the same key is seen.
    func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim
    /// Extends the lease of an attempt still at work (the renewal child of `GuardedWriteStore.attempt`, every few
    /// seconds): a replica that dies stops renewing, and a repeat learns within one lease that the attempt is gone.
    /// False when `owner` no longer holds `key`.
    func renew(_ key: SubmissionKey, owner: String) async throws -> Bool
    /// The recovery point just before the upstream create, and the limit's slot for it, in one step: a slot of
    /// `rule` is taken for `limitKey` and the attempt marked `sending` (its lease renewed). `.lost` when this attempt
    /// no longer owns `key` (its lease passed and another attempt took it): no slot is taken, and it must not create.
    func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart
    /// The upstream made the report: what a repeat of the submission is shown (the secret sealed).
    func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws
    /// The upstream create's outcome is unknown (it timed out): the entry stays, and every repeat is told
    /// so instead of creating again.
    func markUnknown(_ key: SubmissionKey, owner: String) async throws
    /// Nothing was made (refused, or the upstream failed before making anything): the key is free again.
    func release(_ key: SubmissionKey, owner: String) async throws
    /// The announcement `petID` has its photo, in one step: repeats of `key` (the form's submission, when known)
    /// show the complete result, the photo kept under `keptPhoto` is forgotten, so are the API's implicit retry
    /// entries of `petID` (`SubmissionKey.apiRetry`: a repeat of its create is a new report again), and every
    /// replica is told it was published (as `announce`).
    func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws
    /// Forgets the API's implicit retry entries of `petID` (its photo arrived, `SubmissionKey.apiRetry`).
    func forgetRetries(petID: String) async throws

    /// Keeps a photo made safe under `reference` for an hour, within the service-wide budget.
    func keepPhoto(_ photo: StoredPhoto, reference: String) async throws
    /// The photo kept under `reference`, unless it expired or was pushed out.
    func keptPhoto(_ reference: String) async throws -> StoredPhoto?
    /// Forgets the photo kept under `reference` (its report is complete).
    func dropPhoto(_ reference: String) async throws

    /// Takes one slot of `rule` for `key`, atomically across replicas and by one clock.
    func take(_ rule: LimitRule, key: String) async throws -> LimitTake
    /// Gives back a slot taken with `token` (the report was not made, the code was right).
    func refund(_ rule: LimitRule, key: String, token: String) async throws

    /// Tells every replica that `petID` was published (they refresh their snapshot); the one that
    /// published refreshes itself. A store for one replica does nothing.
    func announce(petID: String) async throws

    /// Runs one write attempt on this store: `body` makes its calls on the store it is given.
    /// `GuardedWriteStore` runs it in one task under one deadline (docs/replicas.md "When the database is down
    /// or hangs"); a plain store runs it as it is.
    func attempt<T: Sendable>(_ body: @escaping @Sendable (any WriteStore) async throws -> T) async throws -> T
}

extension WriteStore {
    public func attempt<T: Sendable>(_ body: @escaping @Sendable (any WriteStore) async throws -> T) async throws -> T {
        try await body(self)
    }
}

/// A submission's key: the SHA-256 of its reference, which is all a store keeps. The reference itself
/// (the form's hidden field, an `Idempotency-Key`) stays with the visitor and seals the secret
/// (`SubmissionSeal`), so a copy of the store reveals no management code.
public struct SubmissionKey: Sendable, Hashable {
    /// What the store keeps and looks up.
    public let hash: [UInt8]
    /// The reference the secret is sealed with; never stored.
    let material: [UInt8]
    /// An API create's implicit "Try Again" entry (`apiRetry`), forgotten once its photo arrives.
    public let isRetry: Bool

    init(material: [UInt8], isRetry: Bool = false) {
        self.material = material
        self.isRetry = isRetry
        hash = SubmissionSeal.digest(material)
    }

    /// The web form's submission reference.
    public static func form(_ reference: String) -> SubmissionKey { SubmissionKey(material: Array("form:\(reference)".utf8)) }
    /// An API client's `Idempotency-Key`.
    public static func idempotency(_ key: String) -> SubmissionKey { SubmissionKey(material: Array("api:\(key)".utf8)) }
    /// An API create without `Idempotency-Key`: the same body from the same address within the hour is the
    /// apps' "Try Again" after a failed photo upload (docs/replicas.md "API writes").
    public static func apiRetry(address: String, body: [UInt8]) -> SubmissionKey {
        SubmissionKey(material: Array("retry:\(address)\n".utf8) + body, isRetry: true)
    }

    public static func == (lhs: SubmissionKey, rhs: SubmissionKey) -> Bool { lhs.hash == rhs.hash }
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// What a made report's repeats are shown.
public struct SubmissionRecord: Sendable, Equatable {
    public var petID: String
    /// The secret (the management code, or the API's whole `201` body) sealed with the submission's
    /// reference (`SubmissionSeal.seal`).
    public var sealed: [UInt8]
    /// False while the report's photo has not gone up.
    public var photoUploaded: Bool
    /// The kept photo the retry form offers while `photoUploaded` is false.
    public var keptPhoto: String?

    public init(petID: String, sealed: [UInt8], photoUploaded: Bool, keptPhoto: String?) {
        self.petID = petID
        self.sealed = sealed
        self.photoUploaded = photoUploaded
        self.keptPhoto = keptPhoto
    }
}

/// The answer to `WriteStore.claim`.
public enum Claim: Sendable, Equatable {
    /// This attempt owns the submission: go on, with this owner token.
    case owned(owner: String)
    /// An earlier attempt made the report.
    case created(SubmissionRecord, fingerprint: [UInt8])
    /// An earlier attempt is still at work (its lease is live).
    case inProgress(fingerprint: [UInt8])
    /// An earlier attempt was sending when it timed out or its replica died: whether it made the
    /// report cannot be known, and it must not be made again automatically.
    case unknownOutcome(fingerprint: [UInt8])
}

/// A photo made safe (JPEG), kept while its report is corrected or its upload retried.
public struct StoredPhoto: Sendable, Equatable {
    public let jpeg: [UInt8]
    public let width: Int
    public let height: Int
    /// The file name the visitor chose.
    public let name: String

    public init(jpeg: [UInt8], width: Int, height: Int, name: String) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.name = name
    }
}

/// At most `limit` events per key within a sliding `window`, named for the store (`bucket`).
public struct LimitRule: Sendable, Hashable {
    public let bucket: String
    /// 0 allows everything.
    public let limit: Int
    public let window: Duration

    public init(bucket: String, limit: Int, window: Duration) {
        self.bucket = bucket
        self.limit = limit
        self.window = window
    }

    public var windowSeconds: Double {
        Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
    }
}

/// The answer to `WriteStore.take`.
public enum LimitTake: Sendable, Equatable {
    /// Allowed; `token` gives the slot back (`refund`).
    case granted(token: String)
    /// Refused: whole seconds until a slot frees (at least 1).
    case refused(retryAfter: Int)
}

/// What `WriteStore.take(_:key:and:key:)` answers: a slot of both limits, or of neither.
public enum PairTake: Sendable, Equatable {
    case granted(first: String, second: String)
    case refused(retryAfter: Int)
}

extension WriteStore {
    /// A slot of `first` for `firstKey` and of `second` for `secondKey` (an address and a pet, say), or neither:
    /// the first one's slot is given back when the second refuses.
    public func take(_ first: LimitRule, key firstKey: String, and second: LimitRule, key secondKey: String) async throws -> PairTake {
        let firstToken: String
        switch try await take(first, key: firstKey) {
        case .refused(let seconds): return .refused(retryAfter: seconds)
        case .granted(let token): firstToken = token
        }
        switch try await take(second, key: secondKey) {
        case .refused(let seconds):
            try await refund(first, key: firstKey, token: firstToken)
            return .refused(retryAfter: seconds)
        case .granted(let token): return .granted(first: firstToken, second: token)
        }
    }
}

/// The answer to `WriteStore.startSending`.
public enum SendingStart: Sendable, Equatable {
    /// Marked `sending` with the limit's slot (`token` gives it back, `refund`): create now.
    case sending(token: String)
    /// The limit refused: whole seconds until a slot frees (at least 1). The attempt is still `checking`.
    case refused(retryAfter: Int)
    /// Another attempt owns the submission now: no slot was taken, and this one must not create.
    case lost
}

/// The store is down, refused, or slower than its deadline: the write fails closed.
public struct WriteStoreUnavailable: Error, Sendable, CustomStringConvertible {
    /// What was being done (`claim`, `take`, …): the metric's `operation` label.
    public let operation: String
    /// The detail for the log (never shown to a visitor).
    public let detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "write store unavailable during \(operation): \(detail)" }
}

/// The lease of an attempt: short, and renewed while the attempt works (by the renewal child of
/// `GuardedWriteStore.attempt`, and by `startSending`), so the death of its replica is seen by a repeat within
/// `duration` instead of after the longest attempt could take.
public enum SubmissionLease {
    /// How long a claim, `startSending` or a renewal holds the submission.
    public static let duration: Duration = .seconds(10)
    /// How often an attempt at work renews it.
    public static let renewEvery: Duration = .seconds(3)
}
