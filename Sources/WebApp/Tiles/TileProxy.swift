import Caching
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetAPIClient

/// `GET /tiles/{z}/{x}/{y}.png`: map tiles from the configured tile server through our cache
/// (docs/platform.md "Map"), as the OpenStreetMap tile usage policy asks of a site that shows its tiles.
///
/// - The cache is the photo cache's type (`PhotoCache`: bytes-bounded LRU in memory, optional
///   disk folder), keyed by tile. A tile is fresh as long as the tile server's `Cache-Control` /
///   `Expires` say (`TileFreshness`); `no-store` and `private` tiles are passed on, never kept.
/// - A fresh tile in memory is answered on the server thread and costs the tile server nothing.
///   A stale one is revalidated with its ETag/Last-Modified; a 304 keeps it.
/// - One call per tile at a time (single flight). When the tile server fails, a kept tile is
///   served (stale on error) and asked for again after `retryAfterFailureSeconds`.
final class TileProxy: Sendable {
    /// What a request for a tile comes to.
    enum Outcome: Sendable {
        /// The tile; `kept` false when the tile server forbade keeping it.
        case tile(PhotoEntry, kept: Bool)
        case missing
        case failed(status: HTTPResponse.Status)
    }

    /// Seconds a stale tile is served after a failed call before the tile server is asked again.
    static let retryAfterFailureSeconds: Double = 60

    /// The tile server.
    let source: TileSource
    /// Tiles by `z/x/y`, in memory and optionally on disk.
    let cache: PhotoCache
    /// Where `petspot_tile_cache_total{outcome}` is counted.
    let metrics: Metrics
    /// Tile server failures are logged here.
    let logger: Logger
    /// The app's clock: a tile's freshness is judged by its wall-clock date.
    let clock: DayClock
    /// One call per tile at a time.
    private let flights = SingleFlight<TileAddress, Outcome, Never>()

    init(source: TileSource, cache: PhotoCache, metrics: Metrics, logger: Logger, clock: DayClock) {
        self.clock = clock
        self.source = source
        self.cache = cache
        self.metrics = metrics
        self.logger = logger
    }

    /// What a tile request needs: the tile when it is fresh in memory, else the tile server (`tile`).
    func need(_ tile: TileAddress, requestID: String) -> Need<Outcome> {
        Need(
            inMemory: {
                guard let kept = self.cache.memoryEntry(TileProxy.key(tile)), kept.isFresh(ttl: 0, now: self.clock.date) else { return nil }
                self.metrics.increment("petspot_tile_cache_total", labels: ["outcome": "hit"])
                return .tile(kept, kept: true)
            },
            fetch: { await self.tile(tile, requestID: requestID) }
        )
    }

    /// The answer for an outcome: the tile with the freshness the tile server gave, or the error.
    func answer(_ outcome: Outcome, request: Request) throws(HTTPError) -> Response {
        let now = clock.date
        switch outcome {
        case .tile(let entry, let kept):
            var response = Response(status: .ok, body: entry.bytes)
            response.headers[.contentType] = entry.contentType
            response.headers[.eTag] = entry.etag
            // Browsers may keep it as long as we may, and no longer.
            let left = Int((entry.lifetime ?? 0) - now.timeIntervalSince(entry.checkedAt))
            response.headers[.cacheControl] = !kept ? "no-store" : left > 0 ? "public, max-age=\(left)" : "no-cache"
            return ConditionalGet.answer(response, request: request)
        case .missing:
            throw HTTPError(404, .errorNoTile)
        case .failed(let status):
            throw HTTPError(status, .errorTileFailed)
        }
    }

    /// The tile from the cache when fresh, else from the tile server (one call per tile at a time).
    func tile(_ tile: TileAddress, requestID: String) async -> Outcome {
        let key = TileProxy.key(tile)
        let kept = cache.entry(key)
        if let kept, kept.isFresh(ttl: 0, now: clock.date) {
            metrics.increment("petspot_tile_cache_total", labels: ["outcome": "hit"])
            return .tile(kept, kept: true)
        }
        return await flights.value(for: tile) { await self.refresh(tile, key: key, kept: kept, requestID: requestID) }
    }

    /// Asks the tile server (conditionally when a tile is kept) and keeps what it allows.
    private func refresh(_ tile: TileAddress, key: PhotoKey, kept: PhotoEntry?, requestID: String) async -> Outcome {
        let response: UpstreamResponse
        do {
            response = try await source.fetch(tile, kept?.validators)
        } catch {
            return failed(tile, kept: kept, key: key, reason: error.metricLabel, status: error.visitorStatus, requestID: requestID)
        }
        let freshness = TileFreshness(headers: response.headers, now: clock.date)
        if response.status == 304, var revalidated = kept {
            metrics.increment("petspot_tile_cache_total", labels: ["outcome": "revalidated"])
            revalidated.checkedAt = clock.date
            // A 304 updates what it sends; without freshness fields the tile keeps its own (RFC 9111 §4.3.4).
            let saysFreshness = response.headers[.cacheControl] != nil || response.headers[.expires] != nil
            return keep(revalidated, freshness: saysFreshness ? freshness : .seconds(revalidated.lifetime ?? 0), key: key)
        }
        if response.status == 404 {
            metrics.increment("petspot_tile_cache_total", labels: ["outcome": "missing"])
            return .missing
        }
        let type = (response.headers[.contentType] ?? "").lowercased()
        guard response.status == 200, type.hasPrefix("image/") else {
            return failed(
                tile,
                kept: kept,
                key: key,
                reason: response.status == 200 ? "not_an_image" : "bad_status",
                status: .badGateway,
                requestID: requestID
            )
        }
        metrics.increment("petspot_tile_cache_total", labels: ["outcome": "miss"])
        let entry = PhotoEntry(
            kind: .image,
            bytes: response.body,
            contentType: type,
            width: nil,
            height: nil,
            etag: ConditionalGet.etag(for: response.body),
            validators: PhotoValidators(headers: response.headers),
            checkedAt: clock.date
        )
        return keep(entry, freshness: freshness, key: key)
    }

    /// Keeps `entry` for as long as `freshness` allows; `no-store` removes any older copy.
    private func keep(_ entry: PhotoEntry, freshness: TileFreshness, key: PhotoKey) -> Outcome {
        switch freshness {
        case .doNotKeep:
            cache.remove(key)
            return .tile(entry, kept: false)
        case .seconds(let seconds):
            var kept = entry
            kept.lifetime = seconds
            cache.keep(kept, for: key)
            return .tile(kept, kept: true)
        }
    }

    /// A failed call: the kept tile when there is one (stale on error), else the failure.
    private func failed(
        _ tile: TileAddress,
        kept: PhotoEntry?,
        key: PhotoKey,
        reason: String,
        status: HTTPResponse.Status,
        requestID: String
    ) -> Outcome {
        logger.warning("tile server failed", metadata: ["tile": "\(tile.key)", "reason": "\(reason)", "request_id": "\(requestID)"])
        guard var stale = kept else {
            metrics.increment("petspot_tile_cache_total", labels: ["outcome": "failed"])
            return .failed(status: status == .notFound ? .badGateway : status)
        }
        metrics.increment("petspot_tile_cache_total", labels: ["outcome": "stale"])
        stale.checkedAt = clock.date
        stale.lifetime = TileProxy.retryAfterFailureSeconds
        cache.keep(stale, for: key)
        return .tile(stale, kept: true)
    }

    /// A tile's key in the photo-cache type: the tile's `z/x/y`.
    static func key(_ tile: TileAddress) -> PhotoKey {
        PhotoKey(path: tile.key, variantName: "tile")
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
        let cache = try PhotoCache.make(CacheBudgets(configuration).tiles, setting: "--tile-cache-dir / PETSPOT_TILE_CACHE_DIR")
        return TileProxy(source: source, cache: cache, metrics: metrics, logger: logger, clock: clock)
    }
}
