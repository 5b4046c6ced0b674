import Foundation
import HTTPTypes
import MicroHTTP

/// A response, and the cache policy it was made under: what browsers and shared caches are told
/// (already written on `response` by `CachePolicy.apply`), and whether the server may give this
/// exact answer again for the same request target (`CachePolicy.keptUntil`).
struct Reply: Sendable {
    /// The answer for this request.
    var response: Response
    /// The policy written on `response`, which decides whether the server keeps it and whether it
    /// may be compressed (`BodyCompression.isCompressible`); nil when its maker wrote a policy any
    /// cache may store (a static file, a stale page, an error page, never compressed as it is no
    /// 200) and the server keeps it for this request only.
    var cache: CachePolicy?
    /// The compressed forms of `response`'s body, when whoever keeps it made them (`BodyCompression`);
    /// nil: the compression step makes the one a request needs at the quick level.
    var forms: CompressedForms?
    /// The response cache's entry `response` came from or was just kept in (a page, `PageCaches.cachedPage`):
    /// the pipeline indexes this request's target to it when the policy lets the server reuse it.
    var kept: ResponseCache.Entry?

    /// A reply whose response already carries its policy; the server does not keep it.
    init(_ response: Response, forms: CompressedForms? = nil) {
        self.response = response
        cache = nil
        self.forms = forms
        kept = nil
    }

    /// A reply under `cache`, written on `response` now.
    init(_ response: Response, cache: CachePolicy, forms: CompressedForms? = nil) {
        self.response = cache.applied(to: response)
        self.cache = cache
        self.forms = forms
        kept = nil
    }

    /// This reply under `policy` when it names none: its maker wrote `policy` on the response.
    func under(_ policy: CachePolicy) -> Reply {
        guard cache == nil else { return self }
        var copy = self
        copy.cache = policy
        return copy
    }

    /// Until when the server may give this reply again for requests of the same target (`CachePolicy.keptUntil`).
    func keptUntil(method: HTTPRequest.Method) -> ContinuousClock.Instant? {
        cache?.keptUntil(response, method: method)
    }
}
