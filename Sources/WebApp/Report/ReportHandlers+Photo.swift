import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain
import ReportStore

/// `/report/photo`: a report's photo sent again (its upload failed) or replaced, with the
/// management code. The upstream never limits wrong codes (6 digits, 900,000 values), so we do:
/// at most 10 wrong codes per client address per 10 minutes and 20 per announcement per hour,
/// then 429 without asking the upstream.
extension ReportHandlers {
    /// `GET /report/photo?id=…`: the form to replace a report's photo.
    func photoForm(_ request: Request) -> Response {
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        return photoPage(id: request.query["id"] ?? "", language: language, status: .ok)
    }

    /// `POST /report/photo`: checks the code's shape and the limits, makes the photo safe, sends it.
    func sendPhoto(_ request: Request, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let texts = site.renderer.texts(language)
        let id = (form["id"] ?? "").trimmingCharacters(in: .whitespaces)
        let code = (form["managementPassword"] ?? "").trimmingCharacters(in: .whitespaces)
        let address = identity.address(peer: request.clientAddress, headers: request.headers)
        var state = ReportFormState(draft: ReportDraft(), submission: "")
        guard !id.isEmpty, code.utf8.count == 6, code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return photoPage(
                id: id,
                language: language,
                status: .unprocessableContent,
                codeError: id.isEmpty ? nil : texts(.photoErrorCodeFormat),
                problem: id.isEmpty ? texts(.photoErrorNoReport) : nil
            )
        }
        // A slot of both wrong-code limits is taken before the upstream is asked, and given back unless
        // the code was wrong: two replicas at the same instant cannot both pass the last slot.
        let slots: GuessSlots
        do {
            switch try await takeGuessSlots(address: address, id: id) {
            case .refused(let seconds):
                var response = photoPage(
                    id: id,
                    language: language,
                    status: .tooManyRequests,
                    problem: texts.counted(.photoProblemThrottled, max(1, (seconds + 59) / 60))
                )
                response.headers[.retryAfter] = String(seconds)
                return response
            case .granted(let granted): slots = granted
            }
        } catch {
            logger.error("write store unavailable", metadata: ["operation": "take", "detail": "\(error)", "request_id": "\(requestID)"])
            return storeDownPage(id: id, language: language, texts: texts)
        }
        var wrongCode = false
        defer { if !wrongCode { Task { [self] in await giveBack(slots, address: address, id: id) } } }
        let photo: ReportPhotos.SafePhoto?
        do {
            photo = try await self.photo(from: form, texts: texts, state: &state)
        } catch {
            return storeDownPage(id: id, language: language, texts: texts)
        }
        guard let photo else {
            return photoPage(
                id: id,
                language: language,
                status: .unprocessableContent,
                photoError: state.errors.first?.message,
                kept: state.keptPhoto
            )
        }
        let authorization = AnnouncementGateway.basicAuthorization(id: id, password: code)
        switch await service.upload(id: id, authorization: authorization, photo: photo, requestID: requestID) {
        case .uploaded:
            let submission = form["submission"].flatMap { FormReference.isWellFormed($0) ? SubmissionKey.form($0) : nil }
            await publish(id, key: submission, keptPhoto: state.keptPhoto?.reference, requestID: requestID)
            return resultPage(ReportRecord(id: id, managementPassword: code, photoUploaded: true), language: language, status: .ok)
        case .refused(let status, let error) where status == .forbidden || error.code == "UNAUTHORIZED":
            wrongCode = true
            logger.notice("wrong management code", metadata: ["pet_id": "\(id)", "request_id": "\(requestID)"])
            return photoPage(id: id, language: language, status: .forbidden, codeError: texts(.photoErrorCode), kept: state.keptPhoto)
        case .refused(let status, _) where status == .notFound:
            return photoPage(id: id, language: language, status: .notFound, problem: texts(.photoErrorNoReport), kept: state.keptPhoto)
        case .refused(_, let error):
            return photoPage(
                id: id,
                language: language,
                status: .unprocessableContent,
                photoError: texts(.reportErrorUpstream, ("message", error.message ?? error.code)),
                kept: state.keptPhoto
            )
        case .failed(let failure):
            let key: TextKey = failure == .timeout ? .reportProblemTimeout : .reportProblemUpstream
            return photoPage(
                id: id,
                language: language,
                status: failure.visitorStatus == 404 ? .badGateway : failure.visitorStatus,
                problem: texts(key),
                kept: state.keptPhoto
            )
        }
    }

    /// The slots a code check took from the two wrong-code limits.
    struct GuessSlots: Sendable {
        let address: String
        let pet: String
    }

    enum GuessTake: Sendable {
        case granted(GuessSlots)
        case refused(retryAfter: Int)
    }

    /// Takes a slot of the per-address and the per-announcement wrong-code limits, or neither.
    func takeGuessSlots(address: String, id: String) async throws -> GuessTake {
        switch try await store.take(rules.guessesByAddress, key: address, and: rules.guessesByPet, key: id) {
        case .refused(let seconds): .refused(retryAfter: seconds)
        case .granted(let byAddress, let byPet): .granted(GuessSlots(address: byAddress, pet: byPet))
        }
    }

    /// A check that was not a wrong code costs nothing.
    func giveBack(_ slots: GuessSlots, address: String, id: String) async {
        try? await store.refund(rules.guessesByAddress, key: address, token: slots.address)
        try? await store.refund(rules.guessesByPet, key: id, token: slots.pet)
    }

    /// The photo form again for a write store that is down or slow (`HTTPError.storeDown`).
    private func storeDownPage(id: String, language: PageLanguage, texts: Texts) -> Response {
        let down = HTTPError.storeDown
        var response = photoPage(id: id, language: language, status: down.status, problem: texts(.reportProblemStore))
        if let seconds = down.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    private func photoPage(
        id: String,
        language: PageLanguage,
        status: HTTPResponse.Status,
        codeError: String? = nil,
        photoError: String? = nil,
        problem: String? = nil,
        kept: (reference: String, name: String)? = nil
    ) -> Response {
        let texts = site.renderer.texts(language)
        var layout = site.layout(
            title: texts(.pageTitle, ("title", texts(.photoTitle))),
            description: texts(.reportDescription),
            canonicalPath: nil,
            location: .unknown(language),
            pageURL: { QueryString.url(Route.reportPhoto.path, [("id", Optional(id))] + $0.linkItems) }
        )
        layout.isReport = true
        let model = PhotoFormModel(
            layout: layout,
            action: QueryString.url(Route.reportPhoto.path, language.linkItems),
            petID: id,
            problem: problem,
            codeError: codeError,
            photoError: photoError,
            keptPhoto: kept?.reference,
            keptPhotoText: kept.map { texts(.reportPhotoKept, ("name", $0.name)) }
        )
        return ReportHandlers.private(site.renderer.page(model, template: "report-photo", language: language, status: status))
    }
}
