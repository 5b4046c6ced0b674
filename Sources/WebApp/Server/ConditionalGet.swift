import HTTPTypes
import MicroHTTP

/// ETags, shared by static files, pages and the JSON API; the 304 for `If-None-Match` or
/// `If-Modified-Since` is the pipeline's (`BodyCompression.answer`), once the coding is chosen.
enum ConditionalGet {
    /// A strong ETag of the body (see `EntityTag`).
    static func etag(for body: [UInt8]) -> String { EntityTag.strong(for: body) }

    /// `response` as it is: the bodiless 304 for a matching `If-None-Match` is made by the
    /// pipeline once the coding is chosen (`BodyCompression.answer`), for every answer with an
    /// ETag. Kept so that handlers say where an answer is conditional.
    static func answer(_ response: Response, request: Request) -> Response { response }
}
