import Foundation
import HTTPTypes
import MicroHTTP

/// A response, and the cache policy it was made under (required: `no-store` when its maker says
/// nothing): what browsers and shared caches are told, whether the server gives this exact answer again
/// for the same request target (`CachePolicy.keptUntil`) and whether it may be compressed
/// (`CachePolicy.mayCompress`). The pipeline's one header step writes the policy's `Cache-Control`
/// (`AnswerHeaders.finish`); a route whose answers are all private says so in its entry of the route
/// table (`RouteEntry.Privacy`), so a page that forgets its policy is never kept nor compressed.
struct Reply: Sendable {
    /// The answer for this request.
    var response: Response
    /// Who may keep the answer: written on it by `AnswerHeaders.finish`, read by the compression step.
    var cache: CachePolicy
    /// The compressed forms of `response`'s body, when whoever keeps it made them (`BodyCompression`);
    /// nil: the compression step makes the one a request needs at the quick level.
    var forms: CompressedForms?
    /// The response cache's entry `response` came from or was just kept in (a page, `PageCaches.cachedPage`):
    /// the pipeline indexes this request's target to it when the policy lets the server reuse it.
    var kept: ResponseCache.Entry?

    /// A reply under `cache` (`no-store` when its maker names none).
    init(_ response: Response, cache: CachePolicy = .noStore, forms: CompressedForms? = nil) {
        self.response = response
        self.cache = cache
        self.forms = forms
        kept = nil
    }

    /// This reply under `policy` instead of its own: a route whose every answer is for its client
    /// only, or for this request only (`RouteEntry.Privacy`), whatever its handler said.
    func under(_ policy: CachePolicy) -> Reply {
        var copy = self
        copy.cache = policy
        copy.forms = nil
        copy.kept = nil
        return copy
    }

    /// Until when the server may give this reply again for requests of the same target (`CachePolicy.keptUntil`).
    func keptUntil(method: HTTPRequest.Method) -> ContinuousClock.Instant? {
        cache.keptUntil(response, method: method)
    }
}
