import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain
import ReportStore
import Sightings

/// What the backend said of a management code (`AnnouncementGateway.checkManagementCode`, product spec §10).
enum OwnerCheck: Sendable, Equatable {
    case owner
    case wrongCode
    case unknownPet
    /// The backend could not say (down, slow, an answer we do not know): fail closed.
    case unavailable
}

/// "I've seen this pet" and the owner's private page (docs/sightings.md): `/pets/{id}/sighting` (the form, and
/// its answer), `/pets/{id}/sightings` (the management code, then the sightings) and each sighting's photo.
/// Every page is private (`RouteEntry.Privacy.private`: never kept, never compressed). Nothing of a sighting
/// reaches a public page, the API, a feed, the map or a cache.
struct SightingHandlers: Sendable {
    let site: SiteContext
    let store: any SightingStore
    /// The report flow: its wrong-code limits (counted once for the service), its photo pool and its write store.
    let reports: ReportHandlers
    let gateway: AnnouncementGateway
    /// Asks the backend whether a code is the pet's (`AnnouncementGateway.checkManagementCode`).
    let checkCode: @Sendable (_ petID: String, _ code: String, _ requestID: String) async -> OwnerCheck
    /// Owes the owner a mail of the sighting through the alerts' outbox (`AlertAssembly.relay`): false when it is not mailed.
    let relay: @Sendable (_ sighting: Sighting, _ pet: Announcement, _ language: PageLanguage, _ requestID: String) async -> Bool
    /// The reunited pets the snapshot puts apart: read again after "We are reunited" here (`reunite`).
    let reunions: ReunionBook
    let places: PlaceFinder?
    let logger: Logger

    /// At most this many sightings per client address an hour, and per pet, for the service (the write store's limits).
    static let perAddress = LimitRule(bucket: "sighting_addr", limit: 10, window: .seconds(3600))
    static let perPet = LimitRule(bucket: "sighting_pet", limit: 30, window: .seconds(3600))
    /// The owner's page's cookie: the one cookie of the site (docs/decisions.md).
    static let cookieName = "petspot_owner"
    /// The most sightings the owner's page lists.
    static let listLimit = 200

    // MARK: - /pets/{id}/sighting

    /// The form alone (the details page embeds it; this is where its answer and a refusal are shown).
    func form(_ request: Request, id: String, requestID: String) async -> Response {
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        guard let pet = await announcement(id, requestID: requestID) else { return notFound(request, requestID: requestID) }
        var values = SightingFormValues()
        if let lat = request.query["lat"], let lng = request.query["lng"] {
            values.latitude = lat
            values.longitude = lng
        }
        return page(.form(values: values, errors: [], problem: nil), pet: pet, language: language, status: .ok)
    }

    /// A sent sighting: checked, its photo made safe, kept for the owner's page and relayed to the owner's e-mail.
    func submit(_ request: Request, id: String, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let values = SightingFormValues(form)
        guard let pet = await announcement(id, requestID: requestID) else { return notFound(request, requestID: requestID) }
        // Home already: nothing is kept or mailed (docs/sightings.md "Reunited"); the page says so.
        guard pet.reunitedAt == nil else {
            return page(.form(values: values, errors: [], problem: nil), pet: pet, language: language, status: .conflict)
        }
        let now = site.days.date
        var checked: CheckedSighting?
        var errors: [SightingFieldError] = []
        switch SightingCheck.check(values, now: now, near: pet.place.coordinate, places: places) {
        case .success(let value): checked = value
        case .failure(let refusal): errors = refusal.errors
        }
        var photo: SightingPhoto?
        if let file = form.file("photo"), file.byteCount > 0 {
            switch await reports.photos.makeSafe(file) {
            case .success(let safe): photo = SightingPhoto(jpeg: safe.jpeg, width: safe.width, height: safe.height)
            case .failure(let refusal):
                errors.append(SightingFieldError(field: .photo, key: refusal == .busy ? .sightingErrorPhotoBusy : .sightingErrorPhoto))
            }
        }
        guard let checked, errors.isEmpty else {
            return page(.form(values: values, errors: errors, problem: nil), pet: pet, language: language, status: .unprocessableContent)
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        do {
            if case .refused(let retryAfter) = try await takeSlots(address: address, petID: id) {
                var response = page(
                    .form(values: values, errors: [], problem: .sightingProblemThrottled),
                    pet: pet,
                    language: language,
                    status: .tooManyRequests
                )
                response.headers[.retryAfter] = String(retryAfter)
                return response
            }
            let sighting = Sighting(
                id: AlertTokens.newID(),
                petID: id,
                seenAt: checked.seenAt,
                latitude: checked.point.latitude,
                longitude: checked.point.longitude,
                placeName: checked.placeName,
                note: checked.note,
                contact: checked.contact,
                photo: photo?.info,
                createdAt: now
            )
            try await store.add(sighting, photo: photo)
            let mailed = await relay(sighting, pet, language, requestID)
            // The pet and whether it was mailed; never the note, the place or the finder's contact.
            logger.info("sighting kept", metadata: ["request_id": "\(requestID)", "pet_id": "\(id)", "mailed": "\(mailed)"])
            return page(.sent(mailed: mailed), pet: pet, language: language, status: .created)
        } catch {
            logger.error("sighting store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            var response = page(
                .form(values: values, errors: [], problem: .sightingProblemStore),
                pet: pet,
                language: language,
                status: .serviceUnavailable
            )
            response.headers[.retryAfter] = String(Limits.storeRetryAfterSeconds)
            return response
        }
    }

    /// A slot of both sighting limits, or neither.
    private func takeSlots(address: String, petID: String) async throws -> PairTake {
        try await reports.store.take(SightingHandlers.perAddress, key: address, and: SightingHandlers.perPet, key: petID)
    }

    // MARK: - /pets/{id}/sightings

    /// The owner's page: the sightings with a live cookie of this pet, else the management code's form.
    func owner(_ request: Request, id: String, requestID: String) async -> Response {
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        guard let pet = await announcement(id, requestID: requestID) else { return notFound(request, requestID: requestID) }
        do {
            guard try await hasAccess(request, petID: id) else {
                return page(.signIn(problem: nil), pet: pet, language: language, status: .ok)
            }
            let sightings = try await store.sightings(petID: id, limit: SightingHandlers.listLimit)
            let reunion = try await store.reunion(petID: id)
            return page(.owner(sightings, reunion: reunion), pet: pet, language: language, status: .ok)
        } catch {
            logger.error("sighting store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            return page(.signIn(problem: .sightingProblemStore), pet: pet, language: language, status: .serviceUnavailable)
        }
    }

    /// The management code, checked with the backend (product spec §10: a photo upload without a photo
    /// changes nothing and tells a right code from a wrong one). Wrong codes count in the report flow's limits
    /// for the address and the pet; the code is never kept, logged or put in a URL. A right one opens the page
    /// for the browser session (a cookie bound to the pet) and redirects to it (303), so a reload posts nothing.
    func signIn(_ request: Request, id: String, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        guard let pet = await announcement(id, requestID: requestID) else { return notFound(request, requestID: requestID) }
        let code = (form["code"] ?? "").trimmingCharacters(in: .whitespaces)
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return page(.signIn(problem: .sightingErrorCodeFormat), pet: pet, language: language, status: .unprocessableContent)
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        let slots: ReportHandlers.GuessSlots
        do {
            switch try await reports.takeGuessSlots(address: address, id: id) {
            case .refused(let seconds):
                var response = page(.signIn(problem: .sightingProblemThrottled), pet: pet, language: language, status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            case .granted(let granted): slots = granted
            }
        } catch {
            logger.error("write store unavailable", metadata: ["operation": "take", "detail": "\(error)", "request_id": "\(requestID)"])
            return page(.signIn(problem: .sightingProblemStore), pet: pet, language: language, status: .serviceUnavailable)
        }
        let answer = await checkCode(id, code, requestID)
        if answer != .wrongCode { await reports.giveBack(slots, address: address, id: id) }
        switch answer {
        case .owner:
            do {
                let token = try await store.openAccess(petID: id, now: site.days.date)
                var response = Response(status: .seeOther)
                response.headers[.location] = LayoutBuilder.withLanguage(Route.sightings(id: id).path, language)
                response.headers[.setCookie] = cookie(token, petID: id)
                return response
            } catch {
                logger.error("sighting store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
                return page(.signIn(problem: .sightingProblemStore), pet: pet, language: language, status: .serviceUnavailable)
            }
        case .wrongCode:
            logger.notice("wrong management code", metadata: ["pet_id": "\(id)", "request_id": "\(requestID)"])
            return page(.signIn(problem: .sightingErrorCode), pet: pet, language: language, status: .forbidden)
        case .unknownPet:
            return notFound(request, requestID: requestID)
        case .unavailable:
            return page(.signIn(problem: .sightingProblemUpstream), pet: pet, language: language, status: .badGateway)
        }
    }

    // MARK: - /pets/{id}/sightings/reunited

    /// "We are reunited" (a found report's "Returned to its owner"), or its undo (`undo=1`, within
    /// `SightingRules.undoWithin`), from the owner's page with a live cookie: kept in the shared store, which tells
    /// every replica (`NOTIFY`); this one reads the reunions and the list again at once, so the pet leaves (or
    /// rejoins) `/pets`, `/map`, the feeds, the matches and the alerts here before the redirect (303) answers.
    func reunite(_ request: Request, id: String, requestID: String) async -> Response {
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let owner = LayoutBuilder.withLanguage(Route.sightings(id: id).path, language)
        guard request.method == .post else { return SightingHandlers.seeOther(owner) }
        guard let pet = await announcement(id, requestID: requestID) else { return notFound(request, requestID: requestID) }
        let undo = request.body.form?["undo"] == "1"
        do {
            guard try await hasAccess(request, petID: id) else {
                return page(.signIn(problem: nil), pet: pet, language: language, status: .forbidden)
            }
            let now = site.days.date
            if undo {
                let undone = try await store.undoReunited(petID: id, now: now)
                logger.info("reunion undone", metadata: ["request_id": "\(requestID)", "pet_id": "\(id)", "undone": "\(undone)"])
            } else {
                let reunion = try await store.markReunited(petID: id, now: now)
                logger.info("pet reunited", metadata: ["request_id": "\(requestID)", "pet_id": "\(id)", "at": "\(reunion.at)"])
            }
        } catch {
            logger.error("sighting store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            return page(.signIn(problem: .sightingProblemStore), pet: pet, language: language, status: .serviceUnavailable)
        }
        if await reunions.reload() { await gateway.refreshAfterWrite(requestID: requestID) }
        return SightingHandlers.seeOther(owner)
    }

    static func seeOther(_ location: String) -> Response {
        var response = Response(status: .seeOther)
        response.headers[.location] = location
        return response
    }

    /// A sighting's photo, for the owner's page with a live cookie only.
    func photo(_ request: Request, id: String, sighting: String, requestID: String) async -> Response {
        do {
            guard AlertTokens.isWellFormed(sighting), try await hasAccess(request, petID: id),
                let photo = try await store.photo(sightingID: sighting, petID: id)
            else { return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: Array("Not found\n".utf8)) }
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: photo.jpeg)
        } catch {
            logger.error("sighting store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            return Response(status: .serviceUnavailable, headers: [.retryAfter: String(Limits.storeRetryAfterSeconds)])
        }
    }

    /// Whether the request's cookie opens `petID`'s page now.
    private func hasAccess(_ request: Request, petID: String) async throws -> Bool {
        guard let token = SightingHandlers.cookieValue(request.headers[.cookie]), AlertTokens.isWellFormed(token) else { return false }
        return try await store.hasAccess(token: token, petID: petID, now: site.days.date)
    }

    /// The cookie's value in a `Cookie` header.
    static func cookieValue(_ header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// A session cookie (no `Max-Age`: gone when the browser closes; the store ends it sooner,
    /// `SightingRules.accessFor`), sent back only to this pet's owner page, never to scripts or other sites.
    private func cookie(_ token: String, petID: String) -> String {
        let secure = site.layout.baseURL.hasPrefix("https://") ? "; Secure" : ""
        return "\(SightingHandlers.cookieName)=\(token); Path=\(Route.sightings(id: petID).path); HttpOnly; SameSite=Strict\(secure)"
    }

    /// The announcement, from the snapshot or the details endpoint; nil when unknown or unavailable.
    private func announcement(_ id: String, requestID: String) async -> Announcement? {
        if let known = gateway.freshSnapshot()?.value.announcement(id: id) { return known }
        do throws(UpstreamFailure) {
            return try await gateway.announcement(id: id, requestID: requestID).value
        } catch {
            return nil
        }
    }

    private func notFound(_ request: Request, requestID: String) -> Response {
        ErrorRenderer(site: site).response(HTTPError(404, .errorPetNotFound), format: .page, for: request, requestID: requestID)
    }
}
