import MicroHTTP

/// ETags and `If-None-Match` → 304, shared by static files, pages and the JSON API.
enum ConditionalGet {
    /// A strong ETag of the body (see `EntityTag`).
    static func etag(for body: [UInt8]) -> String { EntityTag.strong(for: body) }

    /// Sets `ETag` and `Cache-Control` on a 200 response and turns it into a bodiless 304 when the
    /// request's `If-None-Match` matches.
    static func apply(to response: inout Response, request: Request, cacheControl: String) {
        guard response.status == 200 else { return }
        let tag = response.headers["ETag"] ?? etag(for: response.body)
        response.headers["ETag"] = tag
        response.headers["Cache-Control"] = cacheControl
        if EntityTag.matches(ifNoneMatch: request.headers["If-None-Match"], etag: tag) {
            response.status = 304
            response.body = []
            response.headers["Content-Type"] = nil
        }
    }

    /// `response` as it is, or its bodiless 304 when the request's `If-None-Match` matches its ETag
    /// (for responses kept with their headers already set).
    static func answer(_ response: Response, request: Request) -> Response {
        guard response.status == 200, let tag = response.headers["ETag"],
              EntityTag.matches(ifNoneMatch: request.headers["If-None-Match"], etag: tag) else { return response }
        var notModified = response
        notModified.status = 304
        notModified.body = []
        notModified.headers["Content-Type"] = nil
        return notModified
    }
}
