import HTTPTypes
import MicroHTTP

/// The one header step that finishes every answer (`Pipeline.finish`, the server's own answers in
/// `ErrorRenderer.serverAnswer`, and a kept page once when kept, `PageCaches.prepared`): a public 200's
/// ETag, the cache policy's fields, and the security headers. Idempotent: a kept page that has them costs
/// a few lookups.
enum AnswerHeaders {
    static func finish(_ response: inout Response, cache: CachePolicy) {
        // A page `PageCaches.prepared` made, or an answer this step finished, under the same policy: its
        // ETag and `CDN-Cache-Control` were written with this `Cache-Control` (only those two write a
        // `shared` one), so one lookup stands for three on the path every located page takes.
        if response.headers.value(.cacheControl) != cache.cacheControl {
            if response.status == .ok, cache.mayCompress, response.headers.value(.eTag) == nil {
                response.headers[.eTag] = ConditionalGet.etag(for: response.body)
            }
            cache.apply(to: &response)
        }
        SecurityHeaders.apply(to: &response)
    }

    /// `response` finished under `cache` (see `finish(_:cache:)`).
    static func finished(_ response: Response, cache: CachePolicy) -> Response {
        var copy = response
        finish(&copy, cache: cache)
        return copy
    }
}
