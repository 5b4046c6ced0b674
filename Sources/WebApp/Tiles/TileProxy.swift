import Caching
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient

/// `GET /tiles/{z}/{x}/{y}.png`: map tiles from the configured tile server through our cache
/// (docs/platform.md "Map"), as the OpenStreetMap tile usage policy asks of a site that shows its tiles.
///
/// A user of the one `RevalidatingProxy` (which keeps, revalidates, shares calls and serves stale
/// on error): a tile is passed on as it came, fresh as long as the tile server's `Cache-Control` /
/// `Expires` say (`TileFreshness`); `no-store` and `private` tiles are passed on, never kept.
final class TileProxy: Sendable {
    /// What a request for a tile comes to.
    typealias Outcome = RevalidatingProxy<TileAddress>.Outcome

    /// Seconds a stale tile is served after a failed call before the tile server is asked again.
    static let retryAfterFailureSeconds: Double = 60

    let proxy: RevalidatingProxy<TileAddress>
    /// The tile server (its connections are released at shutdown).
    let source: TileSource
    /// The app's clock: a tile's freshness is judged by its wall-clock date.
    let clock: DayClock

    /// Tiles by `z/x/y`, in memory and optionally on disk.
    var cache: KeptResourceCache { proxy.cache }

    init(source: TileSource, cache: KeptResourceCache, metrics: Metrics, logger: Logger, clock: DayClock) {
        self.clock = clock
        self.source = source
        let rules = RevalidatingProxy<TileAddress>.Rules(
            metric: "petspot_tile_cache_total",
            ttlSeconds: 0,
            retryAfterFailureSeconds: TileProxy.retryAfterFailureSeconds,
            cacheKey: TileProxy.key,
            fetch: { tile, validators, requestID throws(UpstreamFailure) in
                try await TileProxy.fetch(tile, validators: validators, from: source, logger: logger, requestID: requestID)
            },
            transform: { _, response, _ in
                .entry(
                    KeptResource(
                        kind: .image,
                        bytes: response.body,
                        contentType: (response.headers[.contentType] ?? "").lowercased(),
                        width: nil,
                        height: nil,
                        etag: ConditionalGet.etag(for: response.body),
                        validators: PhotoValidators(headers: response.headers),
                        checkedAt: clock.date
                    )
                )
            },
            freshness: { response, kept, now in
                // A 304 updates what it sends; without freshness fields the tile keeps its own (RFC 9111 §4.3.4).
                let saysFreshness = response.headers[.cacheControl] != nil || response.headers[.expires] != nil
                if response.status == .notModified, !saysFreshness { return .keep(lifetime: kept?.lifetime ?? 0) }
                switch TileFreshness(headers: response.headers, now: now) {
                case .doNotKeep: return .doNotKeep
                case .seconds(let seconds): return .keep(lifetime: seconds)
                }
            }
        )
        proxy = RevalidatingProxy(cache: cache, rules: rules, metrics: metrics, clock: clock)
    }

    /// What a tile request needs: the tile when it is fresh in memory, else the tile server.
    func need(_ tile: TileAddress, requestID: String) -> Need<Outcome> {
        proxy.need(tile, requestID: requestID)
    }

    /// The answer for an outcome: the tile with the freshness the tile server gave, or the error.
    func answer(_ outcome: Outcome, request: Request) throws(HTTPError) -> Reply {
        let now = clock.date
        switch outcome {
        case .entry(let entry, let kept):
            var response = Response(status: .ok, body: entry.bytes)
            response.headers[.contentType] = entry.contentType
            response.headers[.eTag] = entry.etag
            // Browsers may keep it as long as we may, and no longer: the tile server's freshness, passed on.
            let left = Int((entry.lifetime ?? 0) - now.timeIntervalSince(entry.checkedAt))
            let policy: CachePolicy = !kept ? .noStore : left > 0 ? .lasting(seconds: left) : .stale
            return Reply(ConditionalGet.answer(response, request: request), cache: policy)
        case .missing:
            throw HTTPError(404, .errorNoTile)
        case .failed(let status):
            throw HTTPError(status, .errorTileFailed)
        }
    }

    /// One call to the tile server, in the shape the proxy expects: a 404 thrown as `.notFound`, a
    /// 304 only for a conditional call, anything else but an image's 200 thrown (and logged).
    private static func fetch(
        _ tile: TileAddress,
        validators: PhotoValidators?,
        from source: TileSource,
        logger: Logger,
        requestID: String
    ) async throws(UpstreamFailure) -> UpstreamResponse {
        func failed(_ failure: UpstreamFailure, reason: String) -> UpstreamFailure {
            logger.warning("tile server failed", metadata: ["tile": "\(tile.key)", "reason": "\(reason)", "request_id": "\(requestID)"])
            return failure
        }
        let response: UpstreamResponse
        do {
            response = try await source.fetch(tile, validators)
        } catch {
            throw failed(error, reason: error.metricLabel)
        }
        if response.status == .notFound { throw .notFound }
        if response.status == .notModified, validators != nil { return response }
        guard response.status == .ok else { throw failed(.badStatus(response.status, upstreamRequestID: nil), reason: "bad_status") }
        guard (response.headers[.contentType] ?? "").lowercased().hasPrefix("image/") else {
            throw failed(.malformedBody(detail: "not an image", upstreamRequestID: nil), reason: "not_an_image")
        }
        return response
    }

    /// A tile's key in the photo-cache type: the tile's `z/x/y`.
    @Sendable static func key(_ tile: TileAddress) -> KeptResourceKey {
        KeptResourceKey(path: tile.key, variantName: "tile")
    }
}

extension TileProxy {
    /// The proxy as configured: the tile server's template and contact, memory and disk budgets.
    static func make(configuration: AppConfiguration, metrics: Metrics, logger: Logger, clock: DayClock) throws -> TileProxy {
        let contact = configuration.tileContact ?? configuration.effectivePublicBaseURL
        guard
            let source = TileSource.live(
                template: configuration.tileURLTemplate,
                contact: contact,
                timeout: .milliseconds(Int64(configuration.upstreamTimeoutSeconds * 1000))
            )
        else {
            throw StartupError(setting: "--tile-url / PETSPOT_TILE_URL", problem: "not an absolute http(s) URL template")
        }
        let cache = try KeptResourceCache.make(CacheBudgets(configuration).tiles, setting: "--tile-cache-dir / PETSPOT_TILE_CACHE_DIR")
        return TileProxy(source: source, cache: cache, metrics: metrics, logger: logger, clock: clock)
    }
}
