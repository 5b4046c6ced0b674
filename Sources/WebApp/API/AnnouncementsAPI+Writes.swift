import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain
import ReportStore

/// The JSON API's writes, a drop-in for the apps' (docs/report-flow.md "Routes", docs/replicas.md "API writes"): the same
/// validation, photo treatment and limits as the form, and the backend's error body and codes.
/// `null` optional fields are accepted and left out (the backend refuses them).
struct AnnouncementWrites: Sendable {
    let reports: ReportHandlers

    /// `POST /api/v1/announcements`: validated here first; the upstream's answer (its `201` with the
    /// management code) is passed on as it came, and kept sealed in the write store for an hour so that
    /// a repeat gets it again instead of a second announcement (docs/replicas.md "API writes"):
    /// - with `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): the same key and body → the
    ///   saved `201`; the first still at work → `409`; the same key with another body → `422`;
    /// - without it, the same body from the same address while the announcement has no photo yet → the
    ///   saved `201`: the apps' "Try Again" after a failed upload lands on the announcement already made.
    func create(_ request: Request, requestID: String) async throws(HTTPError) -> Response {
        let body = request.body.bytes ?? []
        let today = reports.site.days.reportToday
        let valid: ValidReport
        switch ReportValidation.validate(jsonBody: body, localToday: today.local, upstreamToday: today.upstream) {
        case .success(let report): valid = report
        case .failure(let refusal):
            let first = refusal.first
            throw HTTPError.api(
                400,
                code: first.code.rawValue,
                message: first.message,
                field: first.field.isEmpty ? nil : first.field
            )
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        let key: SubmissionKey
        switch AnnouncementWrites.idempotencyKey(request) {
        case .absent: key = .apiRetry(address: address, body: body)
        case .invalid:
            throw HTTPError.api(
                400,
                code: "INVALID_IDEMPOTENCY_KEY",
                message: "Idempotency-Key must be 1 to 255 visible characters."
            )
        case .given(let text): key = .idempotency(text)
        }
        let fingerprint = SubmissionSeal.fingerprint(body)
        // The upstream's 201 once it came: what the app gets even if the store hangs after it.
        let answer = MadeSoFar<[UInt8]>()
        do {
            // One attempt, one task, one deadline (`GuardedWriteStore.attempt`), as the form's.
            return try await reports.store.attempt { store in
                try await attempt(store, valid: valid, key: key, fingerprint: fingerprint, address: address, requestID: requestID, answer: answer)
            }
        } catch let error as HTTPError {
            throw error
        } catch let error as WriteStoreUnavailable {
            if let body = answer.value { return Response.json(body, status: .created) }
            throw AnnouncementWrites.storeDown(error, logger: reports.logger, requestID: requestID)
        } catch {
            throw AnnouncementWrites.storeDown(
                WriteStoreUnavailable(operation: "create", detail: "\(error)"),
                logger: reports.logger,
                requestID: requestID
            )
        }
    }

    /// The claim and what follows from it, on the attempt's `store`.
    private func attempt(
        _ store: any WriteStore,
        valid: ValidReport,
        key: SubmissionKey,
        fingerprint: [UInt8],
        address: String,
        requestID: String,
        answer: MadeSoFar<[UInt8]>
    ) async throws -> Response {
        switch try await store.claim(key, fingerprint: fingerprint) {
        case .owned(let owner):
            return try await self.made(valid, store: store, key: key, owner: owner, address: address, requestID: requestID, answer: answer)
        case .created(let record, let saved):
            guard saved == fingerprint else { throw AnnouncementWrites.otherBody }
            guard let body = SubmissionSeal.open(record.sealed, for: key) else {
                throw HTTPError.api(409, code: "CONFLICT", message: "This request was already made.")
            }
            return Response.json(body, status: .created)
        case .inProgress(let saved):
            guard saved == fingerprint else { throw AnnouncementWrites.otherBody }
            throw HTTPError.api(
                409,
                code: "REQUEST_IN_PROGRESS",
                message: "The same request is still being processed. Please retry later."
            )
        case .unknownOutcome(let saved):
            guard saved == fingerprint else { throw AnnouncementWrites.otherBody }
            throw HTTPError.api(
                409,
                code: "OUTCOME_UNKNOWN",
                message: "The first request timed out upstream: it may have been made. Look at the newest announcements before sending again."
            )
        }
    }

    /// The create itself, owning `key`: a refusal (an `HTTPError`) frees the key and gives the limit's
    /// slot back; the store's own errors are thrown as they come.
    private func made(
        _ valid: ValidReport,
        store: any WriteStore,
        key: SubmissionKey,
        owner: String,
        address: String,
        requestID: String,
        answer: MadeSoFar<[UInt8]>
    ) async throws -> Response {
        let token: String
        // The API's own limit (`--api-report-limit`), apart from the form's: phones behind one carrier
        // address share it (docs/report-flow.md "Abuse"); its slot and the recovery point in one statement.
        switch try await store.startSending(key, owner: owner, taking: reports.rules.apiReports, for: address) {
        case .refused(let seconds):
            try await store.release(key, owner: owner)
            throw AnnouncementWrites.tooMany(seconds, message: "Too many reports from this address. Please try again later.")
        case .lost:
            throw HTTPError.api(409, code: "REQUEST_IN_PROGRESS", message: "The same request is being processed.")
        case .sending(let granted): token = granted
        }
        switch await reports.service.create(json: valid.upstreamJSON(), requestID: requestID) {
        case .created(let id, _, let upstreamBody):
            answer.set(upstreamBody)
            let record = SubmissionRecord(petID: id, sealed: SubmissionSeal.seal(upstreamBody, for: key), photoUploaded: false, keptPhoto: nil)
            // Made upstream whatever the store says now: the app gets its 201 either way.
            do { try await store.markCreated(key, owner: owner, record: record) } catch {
                reports.logger.error("API report made but not recorded", metadata: ["pet_id": "\(id)", "request_id": "\(requestID)"])
            }
            return Response.json(upstreamBody, status: .created)
        case .refused(let status, let error):
            try await store.release(key, owner: owner)
            try await store.refund(reports.rules.apiReports, key: address, token: token)
            throw HTTPError.api(status, code: error.code, message: error.message ?? error.code, field: error.field)
        case .failed(let failure) where failure == .timeout:
            try await store.markUnknown(key, owner: owner)
            throw HTTPError.upstream(failure)
        case .failed(let failure):
            try await store.release(key, owner: owner)
            try await store.refund(reports.rules.apiReports, key: address, token: token)
            throw HTTPError.upstream(failure)
        }
    }

    enum IdempotencyKey: Equatable {
        case absent
        case invalid
        case given(String)
    }

    /// The `Idempotency-Key` header: an sf-string (quoted) or, as clients often send it, the bare text.
    static func idempotencyKey(_ request: Request) -> IdempotencyKey {
        guard let raw = request.headers[HTTPField.Name("Idempotency-Key")!] else { return .absent }
        var text = raw.trimmingCharacters(in: .whitespaces)
        // `""` alone stays as it is: an empty sf-string is no key, but two quotes are visible text.
        if text.count > 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard (1...255).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return .invalid }
        return .given(text)
    }

    /// `422`: the key was used with another body.
    static let otherBody = HTTPError.api(
        422,
        code: "IDEMPOTENCY_KEY_REUSED",
        message: "This Idempotency-Key was already used with a different request body."
    )

    /// `503` with `Retry-After`: the write store is down or slow; nothing was sent upstream.
    static func storeDown(_ error: WriteStoreUnavailable, logger: Logger, requestID: String) -> HTTPError {
        logger.error(
            "write store unavailable",
            metadata: ["operation": "\(error.operation)", "detail": "\(error.detail)", "request_id": "\(requestID)"]
        )
        return .storeDown
    }

    /// `POST /api/v1/announcements/{id}/photos`: the `photo` part made safe, then sent with the
    /// client's own HTTP Basic credentials; wrong codes count toward the limits.
    func photo(_ request: Request, id: String, requestID: String) async throws(HTTPError) -> Response {
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic ") else {
            throw HTTPError.api(401, code: "UNAUTHENTICATED", message: "Authorization header is missing.")
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        let slots: ReportHandlers.GuessSlots
        do {
            switch try await reports.takeGuessSlots(address: address, id: id) {
            case .refused(let seconds):
                throw AnnouncementWrites.tooMany(seconds, message: "Too many wrong management passwords. Please try again later.")
            case .granted(let granted): slots = granted
            }
        } catch let error as HTTPError {
            throw error
        } catch let error as WriteStoreUnavailable {
            throw AnnouncementWrites.storeDown(error, logger: reports.logger, requestID: requestID)
        } catch {
            throw AnnouncementWrites.storeDown(.init(operation: "take", detail: "\(error)"), logger: reports.logger, requestID: requestID)
        }
        var wrongCode = false
        defer { if !wrongCode { Task { [reports] in await reports.giveBack(slots, address: address, id: id) } } }
        guard let file = request.body.form?.file("photo"), file.byteCount > 0 else {
            throw HTTPError.api(400, code: "MISSING_FILE", message: "Photo file is required.", field: "photo")
        }
        let safe: ReportPhotos.SafePhoto
        switch await reports.photos.makeSafe(file) {
        case .success(let photo): safe = photo
        case .failure(.tooLarge):
            throw HTTPError.api(
                413,
                code: "PAYLOAD_TOO_LARGE",
                message: "The photo is larger than 20 MB.",
                field: "photo"
            )
        case .failure(.busy):
            throw HTTPError.api(
                503,
                code: "SERVICE_BUSY",
                message: "Too many photos are being processed. Please try again shortly."
            )
        case .failure(let refusal):
            throw HTTPError.api(
                400,
                code: "INVALID_FILE_FORMAT",
                message: "The file is not a photo we can read (\(refusal.label)).",
                field: "file"
            )
        }
        switch await reports.service.upload(id: id, authorization: authorization, photo: safe, requestID: requestID) {
        case .uploaded:
            // The announcement is complete: a repeat of its create is a new report again (`WriteStore.complete`).
            await reports.publish(id, key: nil, keptPhoto: nil, requestID: requestID)
            return Response.json(Array("{}".utf8), status: .created)
        case .refused(let status, let error):
            wrongCode = status == .forbidden
            throw HTTPError.api(status, code: error.code, message: error.message ?? error.code, field: error.field)
        case .failed(let failure):
            throw HTTPError.upstream(failure)
        }
    }

    /// A 429 in the backend's error shape with `Retry-After`.
    static func tooMany(_ seconds: Int, message: String) -> HTTPError {
        var error = HTTPError.api(429, code: "TOO_MANY_REQUESTS", message: message)
        error.retryAfter = seconds
        return error
    }
}
