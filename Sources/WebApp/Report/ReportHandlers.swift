import Foundation
import HTTPTypes
internal import ImageResizer
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain

/// The report flow's pages (docs/report-flow.md): `GET /report` (the form), `POST /report` (it
/// is checked, its photo made safe, the report made upstream, the result shown), and
/// `/report/photo` (send a report's photo again, or replace it, with the management code).
///
/// No cookie and no session: the form carries a submission reference and, after a refusal, the
/// reference of its kept photo; both find short-lived entries in this process's memory.
struct ReportHandlers: Sendable {
    let site: SiteContext
    let service: ReportService
    let photos: ReportPhotos
    let identity: ClientIdentity
    /// Photos of refused reports (an hour, bounded by `--report-photo-cache-mb`).
    let keptPhotos: ExpiringStore<KeptPhoto>
    /// Each submission's attempt, shared by the same form sent twice (an hour).
    let submissions: ExpiringStore<Task<ReportAttempt, Never>>
    /// Accepted reports per client address (`--report-limit` per 10 minutes).
    let reports: RateLimit
    /// Wrong management codes per client address (10 per 10 minutes) and per announcement (20 an hour).
    let guessesByAddress: RateLimit
    let guessesByPet: RateLimit
    let logger: Logger

    // MARK: - GET /report

    /// The empty form: `?status=found` preselects a found-pet report; `lat`/`lng` prefill the place.
    func form(_ request: Request) -> Response {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return site.badQuery(error, path: Route.report.path, query: request.query)
        }
        var draft = ReportDraft()
        draft.status = request.query["status"]?.lowercased() == "found" ? "FOUND" : "MISSING"
        draft.lastSeenDate = ReportClock.today().local.isoString
        if let text = location.coordinateText {
            draft.locationLatitude = text.latitude
            draft.locationLongitude = text.longitude
        }
        let state = ReportFormState(draft: draft, submission: ExpiringStore<Int>.newReference())
        return formPage(state, status: .ok, location: location)
    }

    // MARK: - POST /report

    /// A submitted form: the first submission of its reference runs the attempt; the same form
    /// sent again waits for that attempt and shows its outcome (never a second report).
    func submit(_ request: Request, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let given = form["submission"] ?? ""
        let submission = ExpiringStore<Int>.isReference(given) ? given : ExpiringStore<Int>.newReference()
        let address = identity.address(peer: request.clientAddress, headers: request.headers)
        let (attempt, created) = submissions.value(for: submission, bytes: 256) {
            // Unstructured: the attempt finishes even when this visitor's connection goes away,
            // so a second submission finds its outcome rather than a half-made report.
            Task { await self.attempt(form: form, submission: submission, address: address, language: language, requestID: requestID) }
        }
        let outcome = await attempt.value
        switch outcome {
        case .made(let record):
            return resultPage(record, language: language, status: created ? .created : .ok)
        case .refused(let status, let state, let retryAfter):
            // Nothing was made: the corrected form may use the same reference again.
            if created { submissions.remove(submission) }
            var response = formPage(state, status: status, location: .unknown(language))
            if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            return response
        }
    }

    /// Checks the form and its photo, then makes the report upstream.
    private func attempt(form: FormBody, submission: String, address: String, language: PageLanguage, requestID: String) async -> ReportAttempt {
        let texts = site.texts(language)
        var state = ReportFormState(draft: ReportDraft(fields: form.fields), submission: submission)
        let photo = await self.photo(from: form, texts: texts, state: &state)
        let today = ReportClock.today()
        let valid: ValidReport?
        switch ReportValidation.validate(state.draft, localToday: today.local, upstreamToday: today.upstream) {
        case .success(let report): valid = report
        case .failure(let refusal):
            valid = nil
            for error in refusal.errors {
                state.errors.append((error.field, texts.reportProblem(error.problem, englishFallback: error.message)))
            }
        }
        // Field order as the form shows them, the photo last.
        state.errors.sort { ReportHandlers.order($0.field) < ReportHandlers.order($1.field) }
        guard let valid, let photo, state.errors.isEmpty else { return .refused(.unprocessableContent, state, retryAfter: nil) }
        if let wait = reports.retryAfter(address) {
            let seconds = RateLimit.seconds(wait)
            state.problem = texts.counted(.reportProblemThrottled, max(1, (seconds + 59) / 60))
            return .refused(.tooManyRequests, state, retryAfter: seconds)
        }
        switch await service.create(json: valid.upstreamJSON(), requestID: requestID) {
        case .created(let id, let password, _):
            reports.record(address)
            var record = ReportRecord(id: id, managementPassword: password, photoUploaded: false, keptPhoto: state.keptPhoto?.reference)
            record.pet = valid.announcement(id: id, createdAt: Date())
            let authorization = AnnouncementGateway.basicAuthorization(id: id, password: password)
            if case .uploaded = await service.upload(id: id, authorization: authorization, photo: photo, requestID: requestID) {
                record.photoUploaded = true
                if let kept = record.keptPhoto { keptPhotos.remove(kept) }
                record.keptPhoto = nil
                await service.publish(requestID: requestID)
            }
            return .made(record)
        case .refused(let status, let error):
            if error.code == "CONFLICT" || status == .conflict {
                state.errors.append(("microchipNumber", texts(.reportErrorChipTaken)))
                return .refused(.conflict, state, retryAfter: nil)
            }
            let field = error.field.flatMap { ReportDraft.fieldNames.contains($0) || $0 == "contact" ? $0 : nil }
            let message = texts(.reportErrorUpstream, ("message", error.message ?? error.code))
            if let field { state.errors.append((field, message)) } else { state.problem = message }
            return .refused(.unprocessableContent, state, retryAfter: nil)
        case .failed(let failure):
            state.problem = texts(failure == .timeout ? .reportProblemTimeout : .reportProblemUpstream)
            return .refused(failure.visitorStatus == 404 ? .badGateway : failure.visitorStatus, state, retryAfter: nil)
        }
    }

    /// The report's photo: the file sent now (made safe and kept), or the one kept from an earlier
    /// submission; nil with a `photo` error when neither is usable.
    func photo(from form: FormBody, texts: Texts, state: inout ReportFormState) async -> ReportPhotos.SafePhoto? {
        if let file = form.file("photo"), file.byteCount > 0 {
            switch await photos.makeSafe(file) {
            case .success(let safe):
                let reference = ExpiringStore<Int>.newReference()
                let name = String(file.fileName.suffix(80))
                keptPhotos.put(KeptPhoto(photo: safe, name: name), bytes: safe.jpeg.count, reference: reference)
                state.keptPhoto = (reference, name)
                return safe
            case .failure(let refusal):
                logger.notice("report photo refused", metadata: ["reason": "\(refusal.label)", "bytes": "\(file.byteCount)"])
                state.errors.append(("photo", texts(ReportHandlers.key(refusal))))
                return nil
            }
        }
        if let reference = form["keptPhoto"], ExpiringStore<Int>.isReference(reference) {
            if let kept = keptPhotos.get(reference) {
                state.keptPhoto = (reference, kept.name)
                return kept.photo
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

extension ReportHandlers {
    /// The report flow with its stores and limits, from the configuration.
    static func make(
        configuration: AppConfiguration,
        budgets: CacheBudgets,
        site: SiteContext,
        gateway: AnnouncementGateway,
        keptAnswers: KeptAnswers?,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) -> ReportHandlers {
        ReportHandlers(
            site: site,
            service: ReportService(gateway: gateway, keptAnswers: keptAnswers, logger: logger),
            photos: ReportPhotos(pool: .shared, maxPixels: configuration.maxPhotoMegapixels * 1_000_000),
            identity: ClientIdentity(configuration: configuration),
            keptPhotos: ExpiringStore(
                lifetime: CacheLimits.keptReportPhotoLifetime,
                maxBytes: budgets.reportPhotos,
                maxEntries: CacheLimits.keptReportPhotos,
                now: now
            ),
            submissions: ExpiringStore(lifetime: CacheLimits.submissionLifetime, maxBytes: .max, maxEntries: CacheLimits.submissions, now: now),
            reports: RateLimit(limit: configuration.reportLimit, window: Limits.reportWindow, now: now),
            guessesByAddress: RateLimit(limit: Limits.guessesPerAddress, window: Limits.addressGuessWindow, now: now),
            guessesByPet: RateLimit(limit: Limits.guessesPerPet, window: Limits.petGuessWindow, now: now),
            logger: logger
        )
    }
}
