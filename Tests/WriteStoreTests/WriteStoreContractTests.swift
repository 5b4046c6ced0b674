import Foundation
import PetSpotPostgres
import ReportStore
import TestSupport
import Testing

extension LimitRule {
    /// A limit of 0: every take is granted, with an empty token.
    static let unlimited = LimitRule(bucket: "unlimited", limit: 0, window: .seconds(600))
}

/// One contract, both stores: what the report flow relies on when a submission, a kept photo or a limit
/// may be touched by several replicas at once (docs/replicas.md).
@Suite("Write store contract")
struct WriteStoreContractTests {
    @Test("a first claim owns the submission; a second sees it at work", arguments: StoreKind.allCases)
    func claimThenInProgress(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            guard case .owned = try await store.claim(key, fingerprint: [1, 2]) else {
                Issue.record("the first claim must own the key")
                return
            }
            #expect(try await store.claim(key, fingerprint: [9]) == .inProgress(fingerprint: [1, 2]))
        }
    }

    @Test("of ten claims at the same instant exactly one owns the submission", arguments: StoreKind.allCases)
    func concurrentClaims(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            let owners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        if case .owned = try await store.claim(key, fingerprint: []) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(owners == 1)
        }
    }

    @Test("a made report is what every later claim finds, with its secret sealed", arguments: StoreKind.allCases)
    func createdIsFound(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: [7]) else {
                Issue.record("must own")
                return
            }
            #expect(try await store.startSending(key, owner: owner, taking: .unlimited, for: "x") == .sending(token: ""))
            let sealed = SubmissionSeal.seal(Array("123456".utf8), for: key)
            let record = SubmissionRecord(petID: "pet-1", sealed: sealed, photoUploaded: false, keptPhoto: "ab")
            try await store.markCreated(key, owner: owner, record: record)
            let again = try await store.claim(key, fingerprint: [8])
            #expect(again == .created(record, fingerprint: [7]))
            if case .created(let found, _) = again {
                #expect(SubmissionSeal.open(found.sealed, for: key) == Array("123456".utf8))
                #expect(SubmissionSeal.open(found.sealed, for: freshKey()) == nil)
            }
            try await store.complete(petID: "pet-1", key: key, keptPhoto: nil)
            guard case .created(let complete, _) = try await store.claim(key, fingerprint: []) else {
                Issue.record("still created")
                return
            }
            #expect(complete.photoUploaded && complete.keptPhoto == nil)
        }
    }

    @Test("a refused attempt frees the key; another owner cannot free or take it", arguments: StoreKind.allCases)
    func releaseFrees(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("must own")
                return
            }
            try await store.release(key, owner: "someone else")
            #expect(try await store.startSending(key, owner: "someone else", taking: .unlimited, for: "x") == .lost)
            #expect(try await store.claim(key, fingerprint: []) == .inProgress(fingerprint: []))
            try await store.release(key, owner: owner)
            guard case .owned = try await store.claim(key, fingerprint: []) else {
                Issue.record("a released key must be claimable again")
                return
            }
        }
    }

    @Test("a create that timed out is never made again: its outcome is unknown", arguments: StoreKind.allCases)
    func unknownOutcome(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: [3]) else {
                Issue.record("must own")
                return
            }
            #expect(try await store.startSending(key, owner: owner, taking: .unlimited, for: "x") == .sending(token: ""))
            try await store.markUnknown(key, owner: owner)
            #expect(try await store.claim(key, fingerprint: [3]) == .unknownOutcome(fingerprint: [3]))
            // Releasing does not free a submission that may have been made... only a refusal before sending does.
            #expect(try await store.claim(key, fingerprint: [3]) == .unknownOutcome(fingerprint: [3]))
        }
    }

    @Test("the API's implicit retry entries are forgotten once the photo arrives", arguments: StoreKind.allCases)
    func retriesForgotten(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let body = Array("{\"petName\":\"\(UUID())\"}".utf8)
            let key = SubmissionKey.apiRetry(address: "192.0.2.1", body: body)
            #expect(key == .apiRetry(address: "192.0.2.1", body: body))
            #expect(key != .apiRetry(address: "192.0.2.2", body: body))
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("must own")
                return
            }
            let petID = "pet-\(UUID())"
            try await store.markCreated(key, owner: owner, record: SubmissionRecord(petID: petID, sealed: [1], photoUploaded: false, keptPhoto: nil))
            guard case .created = try await store.claim(key, fingerprint: []) else {
                Issue.record("created")
                return
            }
            try await store.forgetRetries(petID: petID)
            guard case .owned = try await store.claim(key, fingerprint: []) else {
                Issue.record("forgotten entries are free again")
                return
            }
        }
    }

    @Test("a kept photo is found by its reference until dropped", arguments: StoreKind.allCases)
    func keptPhotos(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let reference = UUID().uuidString
            let photo = StoredPhoto(jpeg: [0xFF, 0xD8, 1, 2, 3], width: 4, height: 3, name: "dog’s photo.jpg")
            try await store.keepPhoto(photo, reference: reference)
            #expect(try await store.keptPhoto(reference) == photo)
            #expect(try await store.keptPhoto(UUID().uuidString) == nil)
            try await store.dropPhoto(reference)
            #expect(try await store.keptPhoto(reference) == nil)
        }
    }

    @Test("of ten takes at once at a limit of 3 exactly 3 pass; a refund frees one", arguments: StoreKind.allCases)
    func limits(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let rule = LimitRule(bucket: "test-\(UUID())", limit: 3, window: .seconds(600))
            let takes = try await withThrowingTaskGroup(of: LimitTake.self) { group in
                for _ in 0..<10 { group.addTask { try await store.take(rule, key: "192.0.2.9") } }
                return try await group.reduce(into: [LimitTake]()) { $0.append($1) }
            }
            let tokens = takes.compactMap { if case .granted(let token) = $0 { token } else { nil } }
            #expect(tokens.count == 3)
            for take in takes {
                if case .refused(let seconds) = take { #expect((1...600).contains(seconds)) }
            }
            // Another key is counted apart.
            guard case .granted = try await store.take(rule, key: "192.0.2.10") else {
                Issue.record("another key has its own slots")
                return
            }
            try await store.refund(rule, key: "192.0.2.9", token: tokens[0])
            guard case .granted = try await store.take(rule, key: "192.0.2.9") else {
                Issue.record("a refunded slot is free again")
                return
            }
            guard case .refused = try await store.take(rule, key: "192.0.2.9") else {
                Issue.record("and only that one")
                return
            }
        }
    }

    @Test("a limit of 0 allows everything", arguments: StoreKind.allCases)
    func limitOff(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let rule = LimitRule(bucket: "off-\(UUID())", limit: 0, window: .seconds(600))
            for _ in 0..<5 {
                guard case .granted = try await store.take(rule, key: "x") else {
                    Issue.record("no limit")
                    return
                }
            }
        }
    }
}

extension WriteStoreContractTests {
    @Test("startSending takes the limit's slot and marks the attempt sending in one step", arguments: StoreKind.allCases)
    func startSendingTakesAndMarks(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let rule = LimitRule(bucket: "send-\(UUID())", limit: 1, window: .seconds(600))
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: [4]) else {
                Issue.record("must own")
                return
            }
            guard case .sending(let token) = try await store.startSending(key, owner: owner, taking: rule, for: "192.0.2.20") else {
                Issue.record("the first attempt gets the slot and sends")
                return
            }
            #expect(!token.isEmpty)
            // Sending: a repeat waits, and the attempt cannot start a second time.
            #expect(try await store.claim(key, fingerprint: [4]) == .inProgress(fingerprint: [4]))
            #expect(try await store.startSending(key, owner: owner, taking: rule, for: "192.0.2.20") == .lost)
            // The slot was taken: the limit of 1 is reached for that address.
            guard case .refused = try await store.take(rule, key: "192.0.2.20") else {
                Issue.record("startSending took the limit's slot")
                return
            }
            try await store.refund(rule, key: "192.0.2.20", token: token)
            guard case .granted = try await store.take(rule, key: "192.0.2.20") else {
                Issue.record("its token gives the slot back")
                return
            }
        }
    }

    @Test("startSending refused by the limit leaves the attempt checking; a lost attempt takes no slot", arguments: StoreKind.allCases)
    func startSendingRefusedOrLost(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let rule = LimitRule(bucket: "full-\(UUID())", limit: 1, window: .seconds(600))
            guard case .granted = try await store.take(rule, key: "192.0.2.21") else {
                Issue.record("the first take is granted")
                return
            }
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("must own")
                return
            }
            guard case .refused(let seconds) = try await store.startSending(key, owner: owner, taking: rule, for: "192.0.2.21") else {
                Issue.record("the limit is reached")
                return
            }
            #expect((1...600).contains(seconds))
            // Still checking: released, the key is free again (nothing was sent).
            try await store.release(key, owner: owner)
            guard case .owned = try await store.claim(key, fingerprint: []) else {
                Issue.record("a refused attempt frees its key")
                return
            }
            let other = LimitRule(bucket: "lost-\(UUID())", limit: 1, window: .seconds(600))
            #expect(try await store.startSending(key, owner: "someone else", taking: other, for: "192.0.2.22") == .lost)
            guard case .granted = try await store.take(other, key: "192.0.2.22") else {
                Issue.record("a lost attempt took no slot")
                return
            }
        }
    }

    @Test("complete records the photo, forgets the kept photo and the API's retry entries, in one step", arguments: StoreKind.allCases)
    func completeDoesItAll(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let petID = "pet-\(UUID())"
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("must own")
                return
            }
            let reference = UUID().uuidString
            try await store.keepPhoto(StoredPhoto(jpeg: [0xFF, 0xD8, 9], width: 1, height: 1, name: "a.jpg"), reference: reference)
            try await store.markCreated(
                key,
                owner: owner,
                record: SubmissionRecord(petID: petID, sealed: [1], photoUploaded: false, keptPhoto: reference)
            )
            let retry = SubmissionKey.apiRetry(address: "192.0.2.23", body: Array(petID.utf8))
            guard case .owned(let retryOwner) = try await store.claim(retry, fingerprint: []) else {
                Issue.record("must own the retry entry")
                return
            }
            try await store.markCreated(
                retry,
                owner: retryOwner,
                record: SubmissionRecord(petID: petID, sealed: [2], photoUploaded: false, keptPhoto: nil)
            )

            try await store.complete(petID: petID, key: key, keptPhoto: reference)
            guard case .created(let record, _) = try await store.claim(key, fingerprint: []) else {
                Issue.record("still created")
                return
            }
            #expect(record.photoUploaded && record.keptPhoto == nil)
            #expect(try await store.keptPhoto(reference) == nil)
            guard case .owned = try await store.claim(retry, fingerprint: []) else {
                Issue.record("the retry entry is forgotten")
                return
            }
            // Without a submission (the API's photo), it is the retry entries and the announcement only.
            try await store.complete(petID: "pet-\(UUID())", key: nil, keptPhoto: nil)
        }
    }

    @Test("only the owner renews a lease, and not once the report is made", arguments: StoreKind.allCases)
    func renewals(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = freshKey()
            guard case .owned(let owner) = try await store.claim(key, fingerprint: []) else {
                Issue.record("must own")
                return
            }
            #expect(try await store.renew(key, owner: owner))
            #expect(try await store.renew(key, owner: "someone else") == false)
            #expect(try await store.renew(freshKey(), owner: owner) == false)
            try await store.markCreated(key, owner: owner, record: SubmissionRecord(petID: "p", sealed: [], photoUploaded: true, keptPhoto: nil))
            #expect(try await store.renew(key, owner: owner) == false)
        }
    }

    @Test("a lease that is not renewed passes: a repeat takes over an attempt that sent nothing")
    func leasePasses() async throws {
        let clock = ManualClock()
        let store = MemoryWriteStore(photoBytes: 1 << 20, now: clock.reading)
        let key = freshKey()
        guard case .owned(let first) = try await store.claim(key, fingerprint: []) else {
            Issue.record("must own")
            return
        }
        #expect(try await store.claim(key, fingerprint: []) == .inProgress(fingerprint: []))
        clock.advance(by: SubmissionLease.duration + .seconds(1))
        guard case .owned(let second) = try await store.claim(key, fingerprint: []) else {
            Issue.record("a lapsed lease in `checking` is taken over")
            return
        }
        #expect(second != first)
        let rule = LimitRule(bucket: "lease-\(UUID())", limit: 5, window: .seconds(600))
        #expect(try await store.startSending(key, owner: first, taking: rule, for: "a") == .lost, "the first attempt lost it and must not create")
        guard case .sending = try await store.startSending(key, owner: second, taking: rule, for: "a") else {
            Issue.record("the second attempt sends")
            return
        }
        clock.advance(by: SubmissionLease.duration + .seconds(1))
        #expect(try await store.claim(key, fingerprint: []) == .unknownOutcome(fingerprint: []), "a lapsed lease while sending")
    }

    @Test("the memory store's prune keeps each limit's hits for its own window, not the window of the rule that ran it")
    func pruneKeepsEachBucketsWindow() async throws {
        let clock = ManualClock()
        let store = MemoryWriteStore(photoBytes: 1 << 20, maxLimitKeys: 2, now: clock.reading)
        let daily = LimitRule(bucket: "daily", limit: 1, window: .seconds(86_400))
        let minute = LimitRule(bucket: "minute", limit: 5, window: .seconds(60))
        guard case .granted = try await store.take(daily, key: "ada") else {
            Issue.record("the first take of a fresh key is granted")
            return
        }
        clock.advance(by: .seconds(120))
        // Past two keys: the prune runs under the one-minute rule, two minutes after the daily hit.
        _ = try await store.take(minute, key: "b")
        _ = try await store.take(minute, key: "c")
        guard case .refused = try await store.take(daily, key: "ada") else {
            Issue.record("the daily limit was forgotten by a prune under another rule's window")
            return
        }
    }
}
