import HTTPTypes
import MicroHTTP
import PetAPIClient

/// `GET /images/{path}`: photos from the upstream's `/images/` only (never an arbitrary URL),
/// only `image/*`, size-capped by the gateway, with cache headers (product-spec §4).
struct ImageProxy: Sendable {
    let gateway: AnnouncementGateway

    /// Photos rarely change under one name: a day in any cache, then revalidated with the ETag.
    static let cacheControl = "public, max-age=86400"
    /// Opened directly, an SVG must not run script or load anything in our origin.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    /// The photo, or an error page from `errorPage` (404 when missing or refused, 502/504 on failure).
    func respond(_ request: Request, path: String, requestID: String, errorPage: (HTTPResponse.Status, String) -> Response) async -> Response {
        do {
            let upstream = try await gateway.image(path: path, requestID: requestID)
            var response = Response(status: .ok, body: upstream.body)
            response.headers[.contentType] = upstream.headers[.contentType] ?? "application/octet-stream"
            if let etag = upstream.headers[.eTag] { response.headers[.eTag] = etag }
            response.headers[.contentSecurityPolicy] = ImageProxy.contentSecurityPolicy
            ConditionalGet.apply(to: &response, request: request, cacheControl: ImageProxy.cacheControl)
            return response
        } catch .notFound {
            return errorPage(404, "This photo could not be found.")
        } catch {
            return errorPage(error.visitorStatus, "Unable to load this photo. Please try again later.")
        }
    }
}
