import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient
import PetDomain

/// The report flow's calls upstream, shared by the form (`ReportHandlers`) and the JSON API
/// (`AnnouncementsAPI+Writes`): create, upload the photo, and publish (docs/report-flow.md).
///
/// The management code passes through here and is never logged: log lines name the
/// announcement id, our request id and the upstream's `request-id` only.
struct ReportService: Sendable {
    let gateway: AnnouncementGateway
    let logger: Logger

    /// The outcome of a create call.
    enum Created: Sendable {
        /// `201`: the new id, its code, and the upstream's body as it came.
        case created(id: String, password: String, body: [UInt8])
        /// A `4xx` the upstream explained with its error body (e.g. `409 CONFLICT` for a microchip
        /// already registered): the visitor can correct the form.
        case refused(HTTPResponse.Status, UpstreamWriteAnswer.ErrorBody)
        /// No usable answer: unreachable, too slow, a 5xx, or a body that is not the backend's.
        case failed(UpstreamFailure)
    }

    /// The outcome of a photo upload.
    enum Uploaded: Sendable {
        /// `201`: the photo is in; the announcement joins the list.
        case uploaded
        /// A `4xx` with the upstream's error body (`403 UNAUTHORIZED` for a wrong code).
        case refused(HTTPResponse.Status, UpstreamWriteAnswer.ErrorBody)
        case failed(UpstreamFailure)
    }

    /// `POST /api/v1/announcements` with a validated report's JSON.
    func create(json: [UInt8], requestID: String) async -> Created {
        let response: UpstreamResponse
        do {
            response = try await gateway.createAnnouncement(json: json, requestID: requestID)
        } catch {
            return .failed(error)
        }
        let upstreamID = response.headers[.upstreamRequestID]
        if response.status == .created, let made = UpstreamWriteAnswer.created(response.body) {
            logger.info(
                "report created upstream",
                metadata: [
                    "pet_id": "\(made.id)", "request_id": "\(requestID)",
                    "upstream_request_id": "\(upstreamID ?? "-")",
                ]
            )
            return .created(id: made.id, password: made.managementPassword, body: response.body)
        }
        return refusedOrFailed(response, endpoint: "create", requestID: requestID).map { .refused($0, $1) }
            ?? .failed(
                .badStatus(response.status, upstreamRequestID: upstreamID)
            )
    }

    /// `POST /api/v1/announcements/{id}/photos` with a photo made safe, and the announcement id
    /// and code as HTTP Basic credentials.
    func upload(id: String, authorization: String, photo: ReportPhotos.SafePhoto, requestID: String) async -> Uploaded {
        let response: UpstreamResponse
        do {
            response = try await gateway.uploadPhoto(
                id: id,
                authorization: authorization,
                photo: photo.jpeg,
                contentType: "image/jpeg",
                fileName: "photo.jpg",
                requestID: requestID
            )
        } catch {
            return .failed(error)
        }
        if response.status == .created {
            logger.info(
                "report photo uploaded",
                metadata: [
                    "pet_id": "\(id)", "request_id": "\(requestID)", "bytes": "\(photo.jpeg.count)",
                    "upstream_request_id": "\(response.headers[.upstreamRequestID] ?? "-")",
                ]
            )
            return .uploaded
        }
        return refusedOrFailed(response, endpoint: "photo", requestID: requestID).map { .refused($0, $1) }
            ?? .failed(
                .badStatus(response.status, upstreamRequestID: response.headers[.upstreamRequestID])
            )
    }

    /// The report is complete: the list is fetched again, so the new announcement is on `/pets`, `/map`
    /// and the API at once rather than after the cache TTL. The new snapshot is an event the response
    /// cache listens to (`AnnouncementGateway.whenReplaced`, `ServerAssembly`): its kept pages go then.
    func publish(requestID: String) async {
        await gateway.refreshAfterWrite(requestID: requestID)
    }

    /// A 4xx with the backend's error body, logged with the upstream's request id; nil for anything else
    /// (which is then logged as a failure).
    private func refusedOrFailed(
        _ response: UpstreamResponse,
        endpoint: String,
        requestID: String
    )
        -> (HTTPResponse.Status, UpstreamWriteAnswer.ErrorBody)?
    {
        let upstreamID = response.headers[.upstreamRequestID] ?? "-"
        if (400..<500).contains(response.status.code), let error = UpstreamWriteAnswer.error(response.body) {
            logger.notice(
                "upstream refused a write",
                metadata: [
                    "endpoint": "\(endpoint)", "status": "\(response.status.code)", "code": "\(error.code)", "field": "\(error.field ?? "-")",
                    "request_id": "\(requestID)", "upstream_request_id": "\(upstreamID)",
                ]
            )
            return (response.status, error)
        }
        logger.warning(
            "upstream write failed",
            metadata: [
                "endpoint": "\(endpoint)", "status": "\(response.status.code)", "request_id": "\(requestID)", "upstream_request_id": "\(upstreamID)",
            ]
        )
        return nil
    }
}
