import Foundation
import HTTPTypes
import PetDomain

/// The upstream's write API (docs/report-flow.md): a report is created in two calls, the
/// announcement (JSON) and then its photo (multipart, HTTP Basic with the management code).
///
/// These calls return the upstream's answer whatever its status: its 4xx bodies say which field
/// it refused, which the caller shows or passes on. Only a transport failure (unreachable, timeout)
/// throws. Neither call is retried: a create that timed out may have been made upstream, and a
/// second try would make a second announcement.
extension AnnouncementGateway {
    /// `POST /api/v1/announcements` with `json` (already validated, empty fields left out).
    public func createAnnouncement(json: [UInt8], requestID: String) async throws(UpstreamFailure) -> UpstreamResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[.forwardedRequestID] = requestID
        return try await write(UpstreamPaths.announcements, body: json, headers: headers, endpoint: "create", requestID: requestID)
    }

    /// `POST /api/v1/announcements/{id}/photos`: `photo` in the multipart field `photo`, with HTTP
    /// Basic authorization `user:password` (the backend takes any non-empty user name; the apps
    /// send the announcement id). The password is the management code: it goes in this header and
    /// nowhere else (no log line, no metric label).
    public func uploadPhoto(
        id: String,
        authorization: String,
        photo: [UInt8],
        contentType: String,
        fileName: String,
        requestID: String
    ) async throws(UpstreamFailure) -> UpstreamResponse {
        let boundary = "petspot-" + (0..<3).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }.joined()
        var body: [UInt8] = []
        body.reserveCapacity(photo.count + 256)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(fileName)\"\r\n".utf8)
        body += Array("Content-Type: \(contentType)\r\n\r\n".utf8)
        body += photo
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)", .authorization: authorization]
        headers[.forwardedRequestID] = requestID
        return try await write(UpstreamPaths.photos(id: id), body: body, headers: headers, endpoint: "photo", requestID: requestID)
    }

    /// Whether `code` is the management code of announcement `id`, asked without changing anything
    /// (product spec §10, docs/sightings.md "The ownership check"): a photo upload whose multipart body has
    /// no `photo` part. The backend checks the code before the file, so it answers `400 MISSING_FILE` for
    /// the right code, `403` for a wrong one, `404` for an unknown id (and `401` without credentials). Any
    /// other answer, or none, is `.unavailable`: never taken for the owner. The code goes in the
    /// `Authorization` header only (no log line, no metric label).
    public func checkManagementCode(id: String, code: String, requestID: String) async -> OwnershipCheck {
        let boundary = "petspot-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        // One text part, so the body is well-formed multipart whatever the parser: only the file is missing.
        let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"check\"\r\n\r\n1\r\n--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [
            .contentType: "multipart/form-data; boundary=\(boundary)",
            .authorization: AnnouncementGateway.basicAuthorization(id: id, password: code),
        ]
        headers[.forwardedRequestID] = requestID
        let answer: UpstreamResponse
        do {
            answer = try await write(UpstreamPaths.photos(id: id), body: body, headers: headers, endpoint: "code_check", requestID: requestID)
        } catch {
            return .unavailable
        }
        switch answer.status.code {
        case 400 where UpstreamWriteAnswer.error(answer.body)?.code == "MISSING_FILE": return .owner
        case 403: return .wrongCode
        case 404: return .unknownPet
        default: return .unavailable
        }
    }

    /// `HTTP Basic` credentials for the photo upload: the announcement id as the user name.
    public static func basicAuthorization(id: String, password: String) -> String {
        "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()
    }

    /// Fetches the list again now, so what was just written is on every page at once rather than
    /// after the TTL. A failure is logged by the fetch and otherwise ignored: the report exists.
    public func refreshAfterWrite(requestID: String) async {
        _ = try? await snapshot(requestID: requestID, refreshing: true)
    }

    /// The largest answer to a write read from the upstream: the created item or a list of field
    /// errors, a few KB at most.
    static let maxWriteAnswerBytes = 1024 * 1024

    private func write(
        _ path: String,
        body: [UInt8],
        headers: HTTPFields,
        endpoint: String,
        requestID: String
    )
        async throws(UpstreamFailure) -> UpstreamResponse
    {
        onEvent(.upstreamCall(endpoint: endpoint))
        var request = UpstreamRequest(
            pathAndQuery: path,
            headers: headers,
            timeout: settings.writeTimeout,
            maxBodyBytes: AnnouncementGateway.maxWriteAnswerBytes
        )
        request.method = .post
        request.body = body
        do {
            return try await transport.get(request)
        } catch {
            throw failed(endpoint, error, requestID: requestID)
        }
    }
}

/// The backend's answer to a management code (`AnnouncementGateway.checkManagementCode`).
public enum OwnershipCheck: Sendable, Equatable {
    /// The code is the announcement's.
    case owner
    case wrongCode
    case unknownPet
    /// The backend did not say (down, slow, an answer it does not give for this): fail closed.
    case unavailable
}
