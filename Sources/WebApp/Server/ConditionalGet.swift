import HTTPTypes
import MicroHTTP

/// ETags, shared by static files, pages and the JSON API; the 304 for `If-None-Match` or
/// `If-Modified-Since` is the pipeline's (`BodyCompression.answer`), once the coding is chosen.
enum ConditionalGet {
    /// A strong ETag of the body (see `EntityTag`).
    static func etag(for body: [UInt8]) -> String { EntityTag.strong(for: body) }

    /// Sets `ETag` and the cache policy on a 200 response. The 304 for a matching `If-None-Match`
    /// is the pipeline's (`BodyCompression.answer`), made after the coding is chosen: each coding
    /// has its own tag.
    static func apply(to response: inout Response, request: Request, cache: CachePolicy) {
        guard response.status == 200 else { return }
        response.headers[.eTag] = response.headers.value(.eTag) ?? etag(for: response.body)
        cache.apply(to: &response)
    }

    /// `response` as it is: the bodiless 304 for a matching `If-None-Match` is made by the
    /// pipeline once the coding is chosen (`BodyCompression.answer`), for every answer with an
    /// ETag. Kept so that handlers say where an answer is conditional.
    static func answer(_ response: Response, request: Request) -> Response { response }
}
