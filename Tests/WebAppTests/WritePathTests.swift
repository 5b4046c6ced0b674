import Foundation
import ReportStore
import Synchronization
import TestSupport
import Testing

/// What one report costs the write store (docs/replicas.md "The cost of one report"): the calls of a report
/// with a photo, counted by a wrapper under the app's `GuardedWriteStore`.
@Suite("Write path")
struct WritePathTests {
    @Test func one_report_with_a_photo_makes_five_store_calls_and_renews_nothing() async throws {
        let store = CountingWriteStore(MemoryWriteStore(photoBytes: 16 << 20))
        try await withApp(writeStore: store) { app in
            app.stub.setWrite(path: "/api/v1/announcements", status: 201, body: createdBody(id: "w-1"))
            app.stub.setWrite(path: "/api/v1/announcements/w-1/photos", status: 201, body: "{}")
            var form = ReportForm()
            form.photo = try photoFixture("oriented-gps.jpg")
            let made = try await app.submit(form)
            #expect(made.status == 201)
            #expect(resultPetID(made.text) == "w-1")
            #expect(store.calls == ["claim", "keep_photo", "start_sending", "mark_created", "complete"])
        }
    }

    @Test func the_api_create_makes_three_store_calls_and_its_photo_one() async throws {
        let store = CountingWriteStore(MemoryWriteStore(photoBytes: 16 << 20))
        try await withApp(writeStore: store) { app in
            app.stub.setWrite(path: "/api/v1/announcements", status: 201, body: createdBody(id: "w-2"))
            let body =
                #"{"petName":"Burek","species":"DOG","sex":"MALE","lastSeenDate":"\#(ISO8601DateFormatter.day(Date()))","#
                + #""locationLatitude":52.2297,"locationLongitude":21.0122,"phone":"+48 600 100 200","status":"MISSING"}"#
            let created = try await post(try app.url("/api/v1/announcements"), body: Data(body.utf8), contentType: "application/json")
            #expect(created.status == 201)
            #expect(store.calls == ["claim", "start_sending", "mark_created"])
        }
    }
}

extension ISO8601DateFormatter {
    /// `yyyy-MM-dd` of `date` in UTC.
    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}

/// A write store that names every call it is given, in order, and passes it on.
final class CountingWriteStore: WriteStore {
    let base: any WriteStore
    private let log = Mutex<[String]>([])

    init(_ base: any WriteStore) { self.base = base }

    /// The calls so far, by the store metrics' operation names.
    var calls: [String] { log.withLock { $0 } }

    private func count(_ operation: String) { log.withLock { $0.append(operation) } }

    func claim(_ key: SubmissionKey, fingerprint: [UInt8]) async throws -> Claim {
        count("claim")
        return try await base.claim(key, fingerprint: fingerprint)
    }
    func renew(_ key: SubmissionKey, owner: String) async throws -> Bool {
        count("renew")
        return try await base.renew(key, owner: owner)
    }
    func startSending(_ key: SubmissionKey, owner: String, taking rule: LimitRule, for limitKey: String) async throws -> SendingStart {
        count("start_sending")
        return try await base.startSending(key, owner: owner, taking: rule, for: limitKey)
    }
    func markCreated(_ key: SubmissionKey, owner: String, record: SubmissionRecord) async throws {
        count("mark_created")
        try await base.markCreated(key, owner: owner, record: record)
    }
    func markUnknown(_ key: SubmissionKey, owner: String) async throws {
        count("mark_unknown")
        try await base.markUnknown(key, owner: owner)
    }
    func release(_ key: SubmissionKey, owner: String) async throws {
        count("release")
        try await base.release(key, owner: owner)
    }
    func complete(petID: String, key: SubmissionKey?, keptPhoto: String?) async throws {
        count("complete")
        try await base.complete(petID: petID, key: key, keptPhoto: keptPhoto)
    }
    func forgetRetries(petID: String) async throws {
        count("forget_retries")
        try await base.forgetRetries(petID: petID)
    }
    func keepPhoto(_ photo: StoredPhoto, reference: String) async throws {
        count("keep_photo")
        try await base.keepPhoto(photo, reference: reference)
    }
    func keptPhoto(_ reference: String) async throws -> StoredPhoto? {
        count("kept_photo")
        return try await base.keptPhoto(reference)
    }
    func dropPhoto(_ reference: String) async throws {
        count("drop_photo")
        try await base.dropPhoto(reference)
    }
    func take(_ rule: LimitRule, key: String) async throws -> LimitTake {
        count("take")
        return try await base.take(rule, key: key)
    }
    func refund(_ rule: LimitRule, key: String, token: String) async throws {
        count("refund")
        try await base.refund(rule, key: key, token: token)
    }
    func announce(petID: String) async throws {
        count("announce")
        try await base.announce(petID: petID)
    }
}
