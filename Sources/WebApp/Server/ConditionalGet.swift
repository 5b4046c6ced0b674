import HTTPTypes
import MicroHTTP

/// ETags, `If-None-Match` and `If-Modified-Since` → 304, shared by static files, pages and the JSON API.
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
    /// or, without `If-None-Match`, its `If-Modified-Since` is no earlier than its `Last-Modified`
    /// (for responses kept with their headers already set; the same rule as `KeptAnswers`).
    static func answer(_ response: Response, request: Request) -> Response {
        guard response.status == 200, let tag = response.headers[.eTag] else { return response }
        let lastModified = response.headers[.lastModified].flatMap(HTTPDate.parse)
        guard HTTPDate.notModified(ifNoneMatch: request.headers[.ifNoneMatch],
                                   ifModifiedSince: lastModified == nil ? nil : request.headers[.ifModifiedSince],
                                   etag: tag, lastModified: lastModified) else { return response }
        var notModified = response
        notModified.status = 304
        notModified.body = []
        notModified.headers[.contentType] = nil
        return notModified
    }
}
