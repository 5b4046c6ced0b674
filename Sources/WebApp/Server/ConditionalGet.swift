import HTTPTypes
import MicroHTTP

/// ETags and `If-None-Match` → 304, shared by static files, pages and the JSON API.
enum ConditionalGet {
    /// A strong ETag of the body (see `EntityTag`).
    static func etag(for body: [UInt8]) -> String { EntityTag.strong(for: body) }

    /// Sets `ETag` and `Cache-Control` on a 200 response and turns it into a bodiless 304 when the
    /// request's `If-None-Match` matches.
    static func apply(to response: inout Response, request: Request, cacheControl: String) {
        guard response.status == 200 else { return }
        let tag = response.headers[.eTag] ?? etag(for: response.body)
        response.headers[.eTag] = tag
        response.headers[.cacheControl] = cacheControl
        if EntityTag.matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: tag) {
            response.status = 304
            response.body = []
            response.headers[.contentType] = nil
        }
    }

    /// `response` as it is, or its bodiless 304 when the request's `If-None-Match` matches its ETag
    /// (for responses kept with their headers already set).
    static func answer(_ response: Response, request: Request) -> Response {
        guard response.status == 200, let tag = response.headers[.eTag],
              EntityTag.matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: tag) else { return response }
        var notModified = response
        notModified.status = 304
        notModified.body = []
        notModified.headers[.contentType] = nil
        return notModified
    }
}
