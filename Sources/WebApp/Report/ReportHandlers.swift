import Foundation
import HTTPTypes
internal import ImageResizer
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain
import ReportStore
import Synchronization

/// The report flow's pages (docs/report-flow.md): `GET /report` (the form), `POST /report` (it
/// is checked, its photo made safe, the report made upstream, the result shown), and
/// `/report/photo` (send a report's photo again, or replace it, with the management code).
///
/// No cookie and no session: the form carries a submission reference and, after a refusal, the
/// reference of its kept photo; both find entries in the write store (`WriteStore`: this process's
/// memory, or the PostgreSQL every replica shares — docs/replicas.md), so a repeat of the form on any
/// replica finds the first attempt's outcome.
struct ReportHandlers: Sendable {
    let site: SiteContext
    let service: ReportService
    let photos: ReportPhotos
    let identity: ClientIdentity
    /// Submissions, kept photos and limits, shared by the replicas when a database is configured; within an
    /// attempt (`on(_:)`), the attempt's own view of it.
    var store: any WriteStore
    let rules: ReportRules
    let logger: Logger
    /// The store outside the attempt this copy runs in, for work that outlives the attempt.
    var outer: (any WriteStore)? = nil

    /// How often a repeat of a submission still at work asks the store again, and for how long at most.
    static let pollEvery: Duration = .milliseconds(250)
    static let pollFor: Duration = .seconds(150)

    // MARK: - GET /report

    /// The empty form: `?status=found` preselects a found-pet report; `lat`/`lng` prefill the place.
    func form(_ request: Request) throws(HTTPError) -> Response {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            throw .badQuery(error, path: Route.report.path, query: request.query)
        }
        var draft = ReportDraft()
        draft.status = request.query["status"]?.lowercased() == "found" ? "FOUND" : "MISSING"
        draft.lastSeenDate = site.days.reportToday.local.isoString
        if let text = location.coordinateText {
            draft.locationLatitude = text.latitude
            draft.locationLongitude = text.longitude
        }
        let state = ReportFormState(draft: draft, submission: FormReference.make())
        return formPage(state, status: .ok, location: location)
    }

    // MARK: - POST /report

    /// A submitted form: the first submission of its reference runs the attempt; the same form sent
    /// again — on this replica or another, at once or later — shows that attempt's outcome and never
    /// makes a second report.
    func submit(_ request: Request, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let given = form["submission"] ?? ""
        let submission = FormReference.isWellFormed(given) ? given : FormReference.make()
        let key = SubmissionKey.form(submission)
        let address = identity.address(peer: request.clientAddress, headers: request.headers)
        // The app's clock (`DayClock`), which tests move by hand, not the process's.
        let started = site.days.now()
        // What the visitor is shown if the store hangs after the report was made upstream (a fail-closed 503
        // would hide a report that exists, and its code).
        let made = MadeSoFar<ReportAttempt>()
        do {
            while true {
                // One attempt, one task, one deadline (`GuardedWriteStore.attempt`): the claim and, when this
                // submission is new, the whole attempt.
                let step = try await store.attempt { store -> ReportStep in
                    let handlers = self.on(store)
                    switch try await store.claim(key, fingerprint: []) {
                    case .owned(let owner):
                        let outcome = await handlers.attempt(
                            form: form,
                            key: key,
                            owner: owner,
                            submission: submission,
                            address: address,
                            language: language,
                            requestID: requestID,
                            made: made
                        )
                        return .answer(handlers.render(outcome, language: language, firstTime: true))
                    case .created(let record, _):
                        return .answer(handlers.resultPage(handlers.opened(record, key: key, form: form), language: language, status: .ok))
                    case .unknownOutcome:
                        return .answer(handlers.unknownOutcomePage(form: form, submission: submission, language: language))
                    case .inProgress:
                        return .wait
                    }
                }
                switch step {
                case .answer(let response):
                    return response
                case .wait:
                    guard site.days.now() - started < ReportHandlers.pollFor else {
                        return problemPage(form: form, submission: submission, language: language, key: .reportProblemInProgress, status: .conflict)
                    }
                    try await Task.sleep(for: ReportHandlers.pollEvery)
                }
            }
        } catch let error as WriteStoreUnavailable {
            if let outcome = made.value {
                logger.error(
                    "write store unavailable after the report was made",
                    metadata: ["operation": "\(error.operation)", "detail": "\(error.detail)", "request_id": "\(requestID)"]
                )
                return render(outcome, language: language, firstTime: true)
            }
            return storeDown(error, form: form, submission: submission, language: language, requestID: requestID)
        } catch {
            // Only the sleep and the wait throw otherwise: the visitor went away.
            return storeDown(
                WriteStoreUnavailable(operation: "wait", detail: "\(error)"),
                form: form,
                submission: submission,
                language: language,
                requestID: requestID
            )
        }
    }

    /// One look at the store: the page to answer, or a repeat waits for an earlier attempt still at work.
    private enum ReportStep: Sendable {
        case answer(Response)
        case wait
    }

    /// This flow on `store` (an attempt's view of the shared store).
    func on(_ store: any WriteStore) -> ReportHandlers {
        var handlers = self
        handlers.outer = outer ?? self.store
        handlers.store = store
        return handlers
    }

    private func render(_ outcome: ReportAttempt, language: PageLanguage, firstTime: Bool) -> Response {
        switch outcome {
        case .made(let record):
            return resultPage(record, language: language, status: firstTime ? .created : .ok)
        case .refused(let status, let state, let retryAfter):
            var response = formPage(state, status: status, location: .unknown(language))
            if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            return response
        }
    }

    /// Checks the form and its photo, then makes the report upstream. Owns `key` in the store: every
    /// way out either records what was made or frees the key (a refusal made nothing).
    private func attempt(
        form: FormBody,
        key: SubmissionKey,
        owner: String,
        submission: String,
        address: String,
        language: PageLanguage,
        requestID: String,
        made: MadeSoFar<ReportAttempt>
    ) async -> ReportAttempt {
        let texts = site.renderer.texts(language)
        var state = ReportFormState(draft: ReportDraft(fields: form.fields), submission: submission)
        state.matchAlerts = form["matchAlerts"] != nil
        var slot: String?
        // Set while the upstream create may have made the report: the key is then never freed.
        var mayBeMade = false
        // The lease is renewed by the attempt's renewal child while it works (`GuardedWriteStore.attempt`).
        do {
            let outcome = try await checkAndCreate(
                form: form,
                key: key,
                owner: owner,
                address: address,
                texts: texts,
                state: &state,
                slot: &slot,
                mayBeMade: &mayBeMade,
                requestID: requestID,
                made: made
            )
            if case .refused = outcome, !mayBeMade { try await giveBack(key: key, owner: owner, address: address, slot: slot) }
            return outcome
        } catch let error as WriteStoreUnavailable {
            logger.error(
                "write store unavailable",
                metadata: ["operation": "\(error.operation)", "detail": "\(error.detail)", "request_id": "\(requestID)"]
            )
            if !mayBeMade { try? await giveBack(key: key, owner: owner, address: address, slot: slot) }
            state.problem = texts(.reportProblemStore)
            return .refused(HTTPError.storeDown.status, state, retryAfter: HTTPError.storeDown.retryAfter)
        } catch {
            if !mayBeMade { try? await giveBack(key: key, owner: owner, address: address, slot: slot) }
            state.problem = texts(.reportProblemUpstream)
            return .refused(.badGateway, state, retryAfter: nil)
        }
    }

    /// Nothing was made: the key is free for the corrected form, and the report limit's slot comes back.
    private func giveBack(key: SubmissionKey, owner: String, address: String, slot: String?) async throws {
        try await store.release(key, owner: owner)
        if let slot { try await store.refund(rules.reports, key: address, token: slot) }
    }

    private func checkAndCreate(
        form: FormBody,
        key: SubmissionKey,
        owner: String,
        address: String,
        texts: Texts,
        state: inout ReportFormState,
        slot: inout String?,
        mayBeMade: inout Bool,
        requestID: String,
        made: MadeSoFar<ReportAttempt>
    ) async throws -> ReportAttempt {
        let photo = try await self.photo(from: form, texts: texts, state: &state)
        let today = site.days.reportToday
        let valid: ValidReport?
        switch ReportValidation.validate(state.draft, localToday: today.local, upstreamToday: today.upstream) {
        case .success(let report): valid = report
        case .failure(let refusal):
            valid = nil
            for error in refusal.errors {
                state.errors.append((error.field, texts.reportProblem(error.problem, englishFallback: error.message, clock: site.days)))
            }
        }
        // Field order as the form shows them, the photo last.
        state.errors.sort { ReportHandlers.order($0.field) < ReportHandlers.order($1.field) }
        guard let valid, let photo, state.errors.isEmpty else { return .refused(.unprocessableContent, state, retryAfter: nil) }
        // The limit's slot and the recovery point in one statement (`WriteStore.startSending`).
        switch try await store.startSending(key, owner: owner, taking: rules.reports, for: address) {
        case .refused(let seconds):
            state.problem = texts.counted(.reportProblemThrottled, max(1, (seconds + 59) / 60))
            return .refused(.tooManyRequests, state, retryAfter: seconds)
        case .lost:
            // The lease passed and another attempt took the submission over: it decides.
            state.problem = texts(.reportProblemInProgress)
            return .refused(.conflict, state, retryAfter: nil)
        case .sending(let token):
            slot = token
        }
        mayBeMade = true
        switch await service.create(json: valid.upstreamJSON(), requestID: requestID) {
        case .created(let id, let password, _):
            slot = nil
            var record = ReportRecord(id: id, managementPassword: password, photoUploaded: false, keptPhoto: state.keptPhoto?.reference)
            record.pet = valid.announcement(id: id, createdAt: site.days.date)
            made.set(.made(record))
            await recordMade(record, key: key, owner: owner, requestID: requestID)
            let authorization = AnnouncementGateway.basicAuthorization(id: id, password: password)
            if case .uploaded = await service.upload(id: id, authorization: authorization, photo: photo, requestID: requestID) {
                let kept = record.keptPhoto
                record.photoUploaded = true
                record.keptPhoto = nil
                made.set(.made(record))
                await publish(id, key: key, keptPhoto: kept, requestID: requestID)
            }
            return .made(record)
        case .refused(let status, let error):
            mayBeMade = false
            if error.code == "CONFLICT" || status == .conflict {
                state.errors.append(("microchipNumber", texts(.reportErrorChipTaken)))
                return .refused(.conflict, state, retryAfter: nil)
            }
            let field = error.field.flatMap { ReportDraft.fieldNames.contains($0) || $0 == "contact" ? $0 : nil }
            let message = texts(.reportErrorUpstream, ("message", error.message ?? error.code))
            if let field { state.errors.append((field, message)) } else { state.problem = message }
            return .refused(.unprocessableContent, state, retryAfter: nil)
        case .failed(let failure) where failure == .timeout:
            // It may have been made: never again automatically. The key stays, its outcome unknown (when even that
            // cannot be recorded, the lease passes while `sending`, which repeats read the same way); the slot stays taken.
            slot = nil
            try? await store.markUnknown(key, owner: owner)
            logger.warning("report create timed out: outcome unknown", metadata: ["request_id": "\(requestID)"])
            state.problem = texts(.reportProblemUnknown)
            return .refused(.gatewayTimeout, state, retryAfter: nil)
        case .failed(let failure):
            mayBeMade = false
            state.problem = texts(.reportProblemUpstream)
            return .refused(failure.visitorStatus == 404 ? .badGateway : failure.visitorStatus, state, retryAfter: nil)
        }
    }

    /// Records a made report in the store (the code sealed with the form's reference). The report exists
    /// upstream whatever the store says: when it cannot take it now, the visitor still gets the result
    /// and the code, and the record is written again in the background for a few minutes.
    private func recordMade(_ record: ReportRecord, key: SubmissionKey, owner: String, requestID: String) async {
        let stored = SubmissionRecord(
            petID: record.id,
            sealed: SubmissionSeal.seal(Array(record.managementPassword.utf8), for: key),
            photoUploaded: record.photoUploaded,
            keptPhoto: record.keptPhoto
        )
        do {
            try await store.markCreated(key, owner: owner, record: stored)
        } catch {
            logger.error(
                "report made but not recorded; retrying in the background",
                metadata: ["pet_id": "\(record.id)", "request_id": "\(requestID)"]
            )
            // The attempt's own store stops watching once the visitor has the answer: the shared one, with its deadline.
            let store = outer ?? self.store
            let logger = self.logger
            Task {
                for pause in [1, 2, 5, 10, 30, 60, 120] {
                    try? await Task.sleep(for: .seconds(pause))
                    if (try? await store.markCreated(key, owner: owner, record: stored)) != nil {
                        logger.notice("report recorded after all", metadata: ["pet_id": "\(record.id)"])
                        return
                    }
                }
            }
        }
    }

    /// The report is complete (its photo is up): this replica's snapshot and kept answers are renewed now, then
    /// one statement records it (`WriteStore.complete`: the submission complete, the kept photo and the API's retry
    /// entries forgotten, every other replica told). A failure leaves the other replicas the TTL, and is logged.
    func publish(_ petID: String, key: SubmissionKey?, keptPhoto: String?, requestID: String) async {
        await service.publish(requestID: requestID)
        do {
            try await store.complete(petID: petID, key: key, keptPhoto: keptPhoto)
        } catch {
            logger.notice("could not record a complete report or announce it", metadata: ["pet_id": "\(petID)", "error": "\(error)"])
        }
    }

    /// The report's photo: the file sent now (made safe and kept in the store, so a corrected form finds it
    /// on any replica), or the one kept from an earlier submission; nil with a `photo` error when neither is usable.
    func photo(from form: FormBody, texts: Texts, state: inout ReportFormState) async throws -> ReportPhotos.SafePhoto? {
        if let file = form.file("photo"), file.byteCount > 0 {
            switch await photos.makeSafe(file) {
            case .success(let safe):
                let reference = FormReference.make()
                let name = String(file.fileName.suffix(80))
                try await store.keepPhoto(StoredPhoto(jpeg: safe.jpeg, width: safe.width, height: safe.height, name: name), reference: reference)
                state.keptPhoto = (reference, name)
                return safe
            case .failure(let refusal):
                logger.notice("report photo refused", metadata: ["reason": "\(refusal.label)", "bytes": "\(file.byteCount)"])
                state.errors.append(("photo", texts(ReportHandlers.key(refusal))))
                return nil
            }
        }
        if let reference = form["keptPhoto"], FormReference.isWellFormed(reference) {
            if let kept = try await store.keptPhoto(reference) {
                state.keptPhoto = (reference, kept.name)
                return ReportPhotos.SafePhoto(jpeg: kept.jpeg, width: kept.width, height: kept.height)
            }
            state.errors.append(("photo", texts(.reportErrorPhotoExpired)))
            return nil
        }
        state.errors.append(("photo", texts(.reportErrorPhotoRequired)))
        return nil
    }

    static func key(_ refusal: ReportPhotos.Refusal) -> TextKey {
        switch refusal {
        case .tooLarge: .reportErrorPhotoTooLarge
        case .unsupported: .reportErrorPhotoType
        case .tooManyPixels: .reportErrorPhotoPixels
        case .undecodable: .reportErrorPhotoBroken
        case .busy: .reportErrorPhotoBusy
        }
    }

    /// Where a field is on the form (the summary lists problems in that order).
    static func order(_ field: String) -> Int {
        let onForm = [
            "status", "species", "petName", "sex", "breed", "age", "microchipNumber", "description", "lastSeenDate",
            "locationLatitude", "locationLongitude", "contact", "phone", "email", "reward", "photo",
        ]
        return onForm.firstIndex(of: field) ?? onForm.count
    }
}

/// What an attempt has made so far, for the request waiting on it: when the store hangs after the upstream made
/// the report, the wait ends (`GuardedWriteStore.attempt`) and the visitor is shown this rather than a 503.
final class MadeSoFar<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)

    func set(_ value: Value) { state.withLock { $0 = value } }
    var value: Value? { state.withLock { $0 } }
}
