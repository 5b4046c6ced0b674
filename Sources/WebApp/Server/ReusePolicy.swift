import Foundation
import HTTPTypes
import MicroHTTP

/// A response, and how long the server may give this exact answer again for the same request
/// target without asking the application (see `ReusePolicy`).
struct Reply: Sendable {
    /// The answer for this request.
    var response: Response
    /// Set when these bytes are right for every request of the same target (and language) until
    /// this instant; nil (the default): for this request only.
    var reusableUntil: ContinuousClock.Instant?

    /// A reply for this request only, unless `reusableUntil` says otherwise.
    init(_ response: Response, reusableUntil: ContinuousClock.Instant? = nil) {
        self.response = response
        self.reusableUntil = reusableUntil
    }
}

/// The one place that decides who may reuse an answer, and for how long: the server's kept
/// answers (`KeptAnswers`, served on the server thread before any application code), browsers and
/// shared caches (`Cache-Control`). docs/architecture.md "Caches" lists every cache this feeds.
///
/// - A page or API answer made from fresh data is a pure function of the URL and the snapshot, so
///   any cache may keep it for one TTL, serve it a TTL longer while it revalidates, and for the
///   stale window when we fail (RFC 5861): N replicas behind a CDN cost the upstream one list call
///   per replica per TTL (docs/scaling.md).
/// - The server keeps such an answer itself only once it was asked for twice (`PageCaches.cachedPage`:
///   a visitor's own location is asked for once), until the snapshot's TTL or the end of the day
///   report ages are worded for (`DayClock`), whichever comes first.
/// - An answer that holds a secret or belongs to one client (the report result with its code, API
///   writes, errors carrying a request id) is `private`: no cache keeps it, nothing compresses it.
struct ReusePolicy: Sendable {
    /// Seconds the snapshot is fresh (`--cache-ttl`).
    let ttlSeconds: Double
    /// `Cache-Control` of pages and API answers made from fresh data.
    let cacheControl: String

    init(ttlSeconds: Double, staleMaxSeconds: Double) {
        self.ttlSeconds = ttlSeconds
        cacheControl = ReusePolicy.cacheControl(ttlSeconds: ttlSeconds, staleMaxSeconds: staleMaxSeconds)
    }

    /// `Cache-Control` for answers made from data fresh for `ttlSeconds` that may be served stale on
    /// error for `staleMaxSeconds`. A browser's own cache revalidates every time (`max-age=0`: its
    /// `ETag` makes that a `304`), so a visitor who just reported a pet, or reads a replica that just
    /// heard of one, is never shown the list from before; shared caches keep it for the TTL (`s-maxage`).
    /// No `stale-while-revalidate`: it would let the browser show the old list once more.
    static func cacheControl(ttlSeconds: Double, staleMaxSeconds: Double) -> String {
        let ttl = max(1, Int(ttlSeconds))
        return "public, max-age=0, s-maxage=\(ttl), stale-if-error=\(Int(staleMaxSeconds))"
    }

    /// Until when the server may give a page made from the snapshot confirmed at `confirmedAt`
    /// again: the end of its TTL, or of the day its report ages are worded for, whichever is first.
    func keptUntil(confirmedAt: ContinuousClock.Instant, endOfDay: ContinuousClock.Instant) -> ContinuousClock.Instant {
        min(confirmedAt + .milliseconds(Int64(ttlSeconds * 1000)), endOfDay)
    }

    /// Marks an answer as for its client only: never stored by any cache, and so never kept by the
    /// server (`mayKeep`) nor compressed (`BodyCompression`: a secret beside text the visitor typed).
    static func `private`(_ response: Response) -> Response {
        var copy = response
        copy.headers[.cacheControl] = "no-store"
        return copy
    }

    /// Whether the server may keep `reply` for the request's target: the handler said until when,
    /// the request is a GET or HEAD, and the answer is a 200 no cache is told not to store.
    static func mayKeep(_ reply: Reply, method: HTTPRequest.Method) -> ContinuousClock.Instant? {
        guard let until = reply.reusableUntil, method == .get || method == .head, reply.response.status == .ok,
            reply.response.headers.value(.cacheControl)?.contains("no-store") != true
        else { return nil }
        return until
    }
}
