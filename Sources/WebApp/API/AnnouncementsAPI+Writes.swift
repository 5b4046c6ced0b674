import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// The JSON API's writes, a drop-in for the apps' (docs/report-flow.md "JSON API"): the same
/// validation, photo treatment and limits as the form, and the backend's error body and codes.
/// `null` optional fields are accepted and left out (the backend refuses them).
struct AnnouncementWrites: Sendable {
    let reports: ReportHandlers

    /// `POST /api/v1/announcements`: validated here first; the upstream's answer (its `201` with the
    /// management code) is passed on as it came, never stored.
    func create(_ request: Request, requestID: String) async -> Response {
        let body = request.body.bytes ?? []
        let today = ReportClock.today()
        let valid: ValidReport
        switch ReportValidation.validate(jsonBody: body, localToday: today.local, upstreamToday: today.upstream) {
        case .success(let report): valid = report
        case .failure(let refusal):
            let first = refusal.first
            return AnnouncementsAPI.error(
                400,
                code: first.code.rawValue,
                message: first.message,
                field: first.field.isEmpty ? nil : first.field,
                requestID: requestID
            )
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        if let refused = refusedByLimit(address, requestID: requestID) { return refused }
        switch await reports.service.create(json: valid.upstreamJSON(), requestID: requestID) {
        case .created(_, _, let upstreamBody):
            reports.apiReports.record(address)
            return ReusePolicy.private(Response.json(upstreamBody, status: .created))
        case .refused(let status, let error):
            return AnnouncementsAPI.error(status, code: error.code, message: error.message ?? error.code, field: error.field, requestID: requestID)
        case .failed(let failure):
            return AnnouncementsAPI.upstreamError(failure, requestID: requestID)
        }
    }

    /// `POST /api/v1/announcements/{id}/photos`: the `photo` part made safe, then sent with the
    /// client's own HTTP Basic credentials; wrong codes count toward the limits.
    func photo(_ request: Request, id: String, requestID: String) async -> Response {
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic ") else {
            return AnnouncementsAPI.error(401, code: "UNAUTHENTICATED", message: "Authorization header is missing.", requestID: requestID)
        }
        let address = reports.identity.address(peer: request.clientAddress, headers: request.headers)
        if let wait = reports.guessesByAddress.retryAfter(address) ?? reports.guessesByPet.retryAfter(id) {
            return AnnouncementWrites.tooMany(wait, message: "Too many wrong management passwords. Please try again later.", requestID: requestID)
        }
        guard let file = request.body.form?.file("photo"), file.byteCount > 0 else {
            return AnnouncementsAPI.error(400, code: "MISSING_FILE", message: "Photo file is required.", field: "photo", requestID: requestID)
        }
        let safe: ReportPhotos.SafePhoto
        switch await reports.photos.makeSafe(file) {
        case .success(let photo): safe = photo
        case .failure(.tooLarge):
            return AnnouncementsAPI.error(
                413,
                code: "PAYLOAD_TOO_LARGE",
                message: "The photo is larger than 20 MB.",
                field: "photo",
                requestID: requestID
            )
        case .failure(.busy):
            return AnnouncementsAPI.error(
                503,
                code: "SERVICE_BUSY",
                message: "Too many photos are being processed. Please try again shortly.",
                requestID: requestID
            )
        case .failure(let refusal):
            return AnnouncementsAPI.error(
                400,
                code: "INVALID_FILE_FORMAT",
                message: "The file is not a photo we can read (\(refusal.label)).",
                field: "file",
                requestID: requestID
            )
        }
        switch await reports.service.upload(id: id, authorization: authorization, photo: safe, requestID: requestID) {
        case .uploaded:
            await reports.service.publish(requestID: requestID)
            return ReusePolicy.private(Response.json(Array("{}".utf8), status: .created))
        case .refused(let status, let error):
            if status == .forbidden {
                reports.guessesByAddress.record(address)
                reports.guessesByPet.record(id)
            }
            return AnnouncementsAPI.error(status, code: error.code, message: error.message ?? error.code, field: error.field, requestID: requestID)
        case .failed(let failure):
            return AnnouncementsAPI.upstreamError(failure, requestID: requestID)
        }
    }

    /// The API's own report limit (`--api-report-limit`), apart from the form's: the one place an API
    /// create is counted against it, so the limit's store can change without touching the handler.
    /// A 429 in the backend's error shape when `address` has used it up.
    func refusedByLimit(_ address: String, requestID: String) -> Response? {
        guard let wait = reports.apiReports.retryAfter(address) else { return nil }
        return AnnouncementWrites.tooMany(wait, message: "Too many reports from this address. Please try again later.", requestID: requestID)
    }

    /// A 429 in the backend's error shape with `Retry-After`.
    static func tooMany(_ wait: Duration, message: String, requestID: String) -> Response {
        var response = AnnouncementsAPI.error(429, code: "TOO_MANY_REQUESTS", message: message, requestID: requestID)
        response.headers[.retryAfter] = String(RateLimit.seconds(wait))
        return response
    }
}
