import Foundation
import HTTPTypes
import MicroHTTP

/// Who may keep an answer, and for how long: the one HTTP-cache policy of the application. Every
/// answer's `Cache-Control` is written by `apply(to:)` from one of these values and nowhere else, and
/// the same value decides whether the server keeps the answer for the next request of its target
/// (`keptUntil`) and whether it may be compressed (`mayCompress`). docs/caches.md lists every
/// cache this feeds; docs/compression.md the compression rule.
///
/// - A page or API answer made from fresh data (`shared`) is a pure function of the URL and the
///   snapshot, so any cache may keep it for one TTL and serve it for the stale window when we fail
///   (RFC 5861): N replicas behind a CDN cost the upstream one list call per replica per TTL
///   (docs/scaling.md). The server keeps it itself until `until` when the handler sets it: the end
///   of the snapshot's TTL or of the day report ages are worded for (`keptUntil(confirmedAt:…)`).
/// - An answer that never changes under its URL for a while (static files, redirects, photo
///   variants, map tiles with the tile server's own freshness) is `lasting`: browsers keep it too.
/// - A page made from data the upstream could not confirm, or a tile past its freshness, is
///   `stale`: kept by caches only to be revalidated.
/// - An answer that holds a secret or belongs to one client (the report result with its code, API
///   writes) is `private`; errors, health and metrics are `noStore`. Neither is kept by any cache
///   nor compressed (a secret next to visitor-controlled text: BREACH).
enum CachePolicy: Sendable, Equatable {
    /// Made from fresh data: browsers revalidate every time (`max-age=0`: the ETag makes that a
    /// 304), so a visitor who just reported a pet, or reads a replica that just heard of one, is never
    /// shown the list from before; shared caches keep it `ttlSeconds` and serve it on error for
    /// `staleIfErrorSeconds`. No `stale-while-revalidate`: it would let the browser show the old list
    /// once more. The server gives the same bytes again itself until `until` (nil: it does not).
    case shared(ttlSeconds: Double, staleIfErrorSeconds: Double, until: ContinuousClock.Instant? = nil)
    /// Everyone, browsers included, may keep it `seconds`; the server until `until` (nil: it does not).
    case lasting(seconds: Int, until: ContinuousClock.Instant? = nil)
    /// Made from data nobody confirmed: caches may keep it only to revalidate (`no-cache`).
    case stale
    /// For its client only: never stored, never compressed.
    case `private`
    /// Not worth storing and for this request only (errors, health, metrics): never stored, never compressed.
    case noStore

    /// The `Cache-Control` value: the only place the header's text is made.
    var cacheControl: String {
        switch self {
        case .shared(let ttl, let staleIfError, _): "public, max-age=0, s-maxage=\(max(1, Int(ttl))), stale-if-error=\(Int(staleIfError))"
        case .lasting(let seconds, _): "public, max-age=\(max(0, seconds))"
        case .stale: "no-cache"
        case .private, .noStore: "no-store"
        }
    }

    /// The `CDN-Cache-Control` value (RFC 9213) of answers made from fresh data: a CDN in front keeps
    /// them one TTL and answers from its copy while it revalidates, and on our errors, instead of waiting
    /// for us at every expiry; browsers, which do not read it, keep revalidating (`cacheControl`). Nil for
    /// every other policy: a CDN follows `Cache-Control` (docs/scaling.md "Behind a CDN or shared cache").
    var cdnCacheControl: String? {
        switch self {
        case .shared(let ttl, let staleIfError, _):
            "max-age=\(max(1, Int(ttl))), stale-while-revalidate=\(max(1, Int(ttl))), stale-if-error=\(Int(staleIfError))"
        case .lasting, .stale, .private, .noStore: nil
        }
    }

    /// The policy's fields (`Cache-Control`, then `CDN-Cache-Control` when it has one), for a maker that
    /// appends its headers in one go (`PageCaches.prepared`).
    var fields: [HTTPField] {
        [HTTPField(name: .cacheControl, value: cacheControl)] + (cdnCacheControl.map { [HTTPField(name: .cdnCacheControl, value: $0)] } ?? [])
    }

    /// False for answers no cache may store: they are never compressed either (BREACH: a secret
    /// beside text the visitor typed; docs/compression.md).
    var mayCompress: Bool {
        switch self {
        case .private, .noStore: false
        case .shared, .lasting, .stale: true
        }
    }

    /// Until when the server may give `response` again for every request of the same target (and
    /// language) without asking the application: the handler said until when, the request is a GET
    /// or HEAD, and the answer is a 200. Nil: for this request only.
    func keptUntil(_ response: Response, method: HTTPRequest.Method) -> ContinuousClock.Instant? {
        guard method == .get || method == .head, response.status == .ok else { return nil }
        switch self {
        case .shared(_, _, let until), .lasting(_, let until): return until
        case .stale, .private, .noStore: return nil
        }
    }

    /// This policy without the server's own keeping (the answer is for this request only, e.g. its
    /// `Age` changes every second); what browsers and shared caches are told stays the same.
    var forThisRequest: CachePolicy {
        switch self {
        case .shared(let ttl, let staleIfError, _): .shared(ttlSeconds: ttl, staleIfErrorSeconds: staleIfError)
        case .lasting(let seconds, _): .lasting(seconds: seconds)
        case .stale, .private, .noStore: self
        }
    }

    /// This policy kept by the server until `until` (nil: not kept); `shared` and `lasting` only.
    func with(until: ContinuousClock.Instant?) -> CachePolicy {
        switch self {
        case .shared(let ttl, let staleIfError, _): .shared(ttlSeconds: ttl, staleIfErrorSeconds: staleIfError, until: until)
        case .lasting(let seconds, _): .lasting(seconds: seconds, until: until)
        case .stale, .private, .noStore: self
        }
    }

    /// Writes the policy on `response`: its `Cache-Control` and `CDN-Cache-Control` (only the header
    /// step, `AnswerHeaders.finish`, calls it). Whether it may be compressed is read from the policy itself
    /// (`Reply.cache`, `BodyCompression.isCompressible`), not from the header.
    func apply(to response: inout Response) {
        response.headers[.cacheControl] = cacheControl
        let cdn = cdnCacheControl
        if response.headers.value(.cdnCacheControl) != cdn { response.headers[.cdnCacheControl] = cdn }
    }

    /// Pages and API answers made from data fresh for `ttlSeconds` that may be served stale on
    /// error for `staleMaxSeconds` (`--cache-ttl`, `--stale-max`).
    static func fresh(ttlSeconds: Double, staleMaxSeconds: Double) -> CachePolicy {
        .shared(ttlSeconds: ttlSeconds, staleIfErrorSeconds: staleMaxSeconds)
    }

    /// This `shared` policy kept by the server until the snapshot confirmed at `confirmedAt` is no
    /// longer fresh, or the day its report ages are worded for ends, whichever is first.
    func keptUntil(confirmedAt: ContinuousClock.Instant, endOfDay: ContinuousClock.Instant) -> CachePolicy {
        guard case .shared(let ttl, let staleIfError, _) = self else { return self }
        return .shared(ttlSeconds: ttl, staleIfErrorSeconds: staleIfError, until: min(confirmedAt + .milliseconds(Int64(ttl * 1000)), endOfDay))
    }
}

extension HTTPField.Name {
    /// RFC 9213's targeted field for CDNs.
    static let cdnCacheControl = Self("CDN-Cache-Control")!
}
