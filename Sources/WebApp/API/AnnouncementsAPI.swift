import Foundation
import MicroHTTP
import PetAPIClient
import PetDomain

/// `GET /api/v1/announcements[?lat&lng&range]` and `/api/v1/announcements/{id}`: the validated,
/// normalized data in the current backend's JSON shape (product-spec §4), so a mobile client can
/// point here instead of the raw backend.
struct AnnouncementsAPI: Sendable {
    let gateway: AnnouncementGateway
    /// Encoded bodies reused for the same URL over the same data, like rendered pages.
    let encoded = RenderedPages()

    /// Default radius when located and no `range` is given (the backend's own default, §1).
    static let defaultRangeKm = 5
    /// JSON may be cached briefly by clients and shared caches; the ETag makes rechecks cheap.
    static let cacheControl = "public, max-age=30"

    /// The list, newest first, with `distanceKm` when located.
    func list(_ request: Request, requestID: String) async -> Response {
        let location: VisitorLocation
        switch AnnouncementsAPI.location(of: request) {
        case .success(let parsed): location = parsed
        case .failure(let problem): return AnnouncementsAPI.error(400, code: "INVALID_PARAMETER", message: problem.message, field: problem.parameter)
        }
        do {
            let fetched = try await gateway.list(near: location.origin, rangeKm: location.rangeKm, requestID: requestID)
            var response = encoded.response(for: QueryString.url(request.path, keeping: request.query), version: fetched.fetchedAt) {
                let query = AnnouncementQuery(sort: .newest, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
                let items = fetched.value.items.applying(query)
                var fresh = Response.json(Array(AnnouncementJSON.encodeList(items, origin: location.origin)))
                fresh.headers["ETag"] = ConditionalGet.etag(for: fresh.body)
                return fresh
            }
            AnnouncementsAPI.markAge(&response, fetched.fetchedAt, stale: fetched.isStale)
            ConditionalGet.apply(to: &response, request: request, cacheControl: AnnouncementsAPI.cacheControl)
            return response
        } catch {
            return AnnouncementsAPI.upstreamError(error)
        }
    }

    /// One announcement; 404 JSON when the upstream has none.
    func details(_ request: Request, id: String, requestID: String) async -> Response {
        let location: VisitorLocation
        switch AnnouncementsAPI.location(of: request) {
        case .success(let parsed): location = parsed
        case .failure(let problem): return AnnouncementsAPI.error(400, code: "INVALID_PARAMETER", message: problem.message, field: problem.parameter)
        }
        do {
            let fetched = try await gateway.announcement(id: id, requestID: requestID)
            var response = Response.json(Array(AnnouncementJSON.encodeDetails(fetched.value, origin: location.origin)))
            AnnouncementsAPI.markAge(&response, fetched.fetchedAt, stale: fetched.isStale)
            ConditionalGet.apply(to: &response, request: request, cacheControl: AnnouncementsAPI.cacheControl)
            return response
        } catch {
            return AnnouncementsAPI.upstreamError(error)
        }
    }

    /// The visitor's location from `lat`, `lng`, `range` (the backend's 5 km default range).
    static func location(of request: Request) -> Result<VisitorLocation, QueryProblem> {
        Result { () throws(QueryProblem) in
            try VisitorLocation.parse(request.query, defaultRangeKm: AnnouncementsAPI.defaultRangeKm)
        }
    }

    /// `{"error":{"code","message","field"?}}` with a status.
    static func error(_ status: Int, code: String, message: String, field: String? = nil) -> Response {
        var response = Response.json(Array(AnnouncementJSON.encodeError(code: code, message: message, field: field)), status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The JSON error for an upstream failure; details stay in the log.
    static func upstreamError(_ failure: UpstreamFailure) -> Response {
        switch failure {
        case .notFound:
            return error(404, code: "NOT_FOUND", message: "Announcement not found.")
        case .timeout:
            return error(504, code: "UPSTREAM_TIMEOUT", message: "The announcements service did not answer in time. Please try again later.")
        case .invalidAnnouncement:
            return error(502, code: "INVALID_UPSTREAM_DATA", message: "The announcement data is invalid.")
        default:
            return error(502, code: "UPSTREAM_UNAVAILABLE", message: "Unable to load data. Please try again later.")
        }
    }

    /// `Age` (seconds since the upstream confirmed the data) and a stale marker header.
    static func markAge(_ response: inout Response, _ fetchedAt: Date, stale: Bool) {
        response.headers["Age"] = String(max(0, Int(Date().timeIntervalSince(fetchedAt))))
        if stale { response.headers["X-PetSpot-Stale"] = "true" }
    }
}
