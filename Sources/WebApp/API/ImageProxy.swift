import Caching
import Foundation
import HTTPTypes
internal import ImageResizer
import Logging
import MicroHTTP
import PetAPIClient

/// `GET /images/{path}[?w=320|640|1200|1280]`: photos from the upstream's `/images/` only (never an
/// arbitrary URL), as the variants a good image CDN gives (docs/photos.md, docs/upstream.md §4).
///
/// - Every answer is a variant we made with libvips: WebP, never enlarged or cropped, EXIF
///   orientation applied, all metadata stripped. The plain URL gives the "full" variant (longest
///   side 2048); an original is never served as it came. SVG is never rasterized: it passes as
///   it came, under a sandboxing Content-Security-Policy.
/// - Variants are kept (`PhotoCache`) for the photo TTL: a warm photo costs no upstream call, not
///   even a revalidation, and is answered on the server thread. After the TTL one conditional call
///   (the upstream's ETag/Last-Modified) revalidates it; a 304 keeps the variant without
///   converting again. An upstream failure serves the kept variant (stale on error). A missing
///   photo (404) and an unusable one (a bomb, a truncated or lying file) are remembered for the TTL.
/// - One upstream call and one conversion per path and variant at a time (single flight);
///   conversions run on the bounded `ConversionPool`, never on a request thread.
final class ImageProxy: Sendable {
    /// What resizing needs from the configuration.
    struct Settings: Sendable {
        /// Seconds a variant is served without asking the upstream.
        var ttlSeconds: Double = 86_400
        /// The most pixels a photo's header may declare.
        var maxPixels: Int = 50_000_000
        /// WebP quality (libvips `Q`).
        var quality: Int = 75
        /// Seconds a stale variant is served after a failed revalidation before the next try.
        var retryAfterFailureSeconds: Double = 60
    }

    /// What a request for a photo comes to.
    enum Outcome: Sendable {
        case photo(PhotoEntry)
        case missing
        case failed(status: HTTPResponse.Status)
    }

    /// Opened directly, an SVG must not run script or load anything in our origin.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    let gateway: AnnouncementGateway
    let cache: PhotoCache
    let pool: ConversionPool
    let settings: Settings
    let metrics: Metrics
    let logger: Logger
    let cacheControl: String
    /// The app's clock: kept answers expire by its monotonic reading, a photo's own freshness by its
    /// wall-clock date (a variant outlives the process in the disk cache).
    let clock: DayClock
    /// The body of a missing photo's 404: `Public/img/photo-placeholder.png`, so an `<img>` or an
    /// app shows a neutral picture instead of a broken image; nil answers the HTML 404 page.
    let placeholder: [UInt8]?
    /// One upstream call and one conversion per path and variant at a time.
    private let flights = SingleFlight<PhotoKey, Outcome, Never>()

    init(
        gateway: AnnouncementGateway,
        cache: PhotoCache,
        pool: ConversionPool,
        settings: Settings,
        metrics: Metrics,
        logger: Logger,
        clock: DayClock,
        placeholder: [UInt8]? = nil
    ) {
        self.clock = clock
        self.placeholder = placeholder
        self.gateway = gateway
        self.cache = cache
        self.pool = pool
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        // Browsers and CDNs may keep a variant as long as we do: a photo does not change under its name.
        cacheControl = "public, max-age=\(max(0, Int(settings.ttlSeconds)))"
    }

    // MARK: Answers

    /// What a photo request needs: the variant (or the remembered miss) when it is in memory and
    /// fresh, else the upstream and a conversion (`photo`).
    func need(path: String, variant: PhotoVariant, format: PhotoFormat = .webp, requestID: String) -> Need<Outcome> {
        Need(
            inMemory: { self.inMemory(path: path, variant: variant, format: format) },
            fetch: { await self.photo(path: path, variant: variant, format: format, requestID: requestID) }
        )
    }

    /// The outcome when it is in memory and fresh; nil otherwise. Called on a server thread: it
    /// only looks at the memory part of the cache.
    private func inMemory(path: String, variant: PhotoVariant, format: PhotoFormat) -> Outcome? {
        let now = clock.date
        if let status = cache.memoryEntry(.status(of: path)), status.isFresh(ttl: settings.ttlSeconds, now: now) {
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "hit"])
            return status.kind == .missing ? .missing : .failed(status: 502)
        }
        guard let kept = cache.memoryEntry(PhotoKey(path: path, variant: variant, format: format)), kept.isFresh(ttl: settings.ttlSeconds, now: now)
        else {
            return nil
        }
        metrics.increment("petspot_photo_cache_total", labels: ["outcome": "hit"])
        return .photo(kept)
    }

    /// The answer for an outcome: the variant (reusable while fresh), the placeholder's 404, or the error.
    func answer(_ outcome: Outcome, request: Request) throws(HTTPError) -> Reply {
        let now = clock.date
        switch outcome {
        case .photo(let entry):
            var response = Response(status: .ok, body: entry.bytes)
            response.headers[.contentType] = entry.contentType
            response.headers[.eTag] = entry.etag
            response.headers[.contentSecurityPolicy] = ImageProxy.contentSecurityPolicy
            response.headers[.cacheControl] = cacheControl
            // A raster variant's encoding follows `Accept` (`PhotoFormat`): caches must keep each apart.
            if entry.contentType != "image/svg+xml" { response.headers[.vary] = "Accept" }
            // While fresh, the same bytes are right for every request of this URL: the server
            // may answer them itself (`ReusePolicy`).
            let left = settings.ttlSeconds - now.timeIntervalSince(entry.checkedAt)
            return Reply(
                ConditionalGet.answer(response, request: request),
                reusableUntil: left >= 1 ? clock.now() + .milliseconds(Int64(left * 1000)) : nil
            )
        case .missing:
            guard let placeholder else { throw HTTPError(404, .errorPhotoNotFound) }
            // Still a 404 (the photo is gone), but with a picture as its body. The miss is kept for
            // the photo TTL (`PhotoCache`), so caches may keep this answer as long.
            var response = Response(status: .notFound, body: placeholder)
            response.headers[.contentType] = "image/png"
            response.headers[.cacheControl] = cacheControl
            return Reply(response)
        case .failed(let status):
            // A full conversion queue (503) is over in a moment.
            var error = HTTPError(status, .errorPhotoFailed)
            if status == 503 { error.retryAfter = 1 }
            throw error
        }
    }

    // MARK: The cache and the upstream

    /// The variant from the cache when fresh, else from the upstream (one flight per key).
    func photo(path: String, variant: PhotoVariant, format: PhotoFormat = .webp, requestID: String) async -> Outcome {
        let now = clock.date
        let key = PhotoKey(path: path, variant: variant, format: format)
        if let status = cache.entry(.status(of: path)), status.isFresh(ttl: settings.ttlSeconds, now: now) {
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "hit"])
            return status.kind == .missing ? .missing : .failed(status: 502)
        }
        let kept = cache.entry(key)
        if let kept, kept.isFresh(ttl: settings.ttlSeconds, now: now) {
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "hit"])
            return .photo(kept)
        }
        return await flights.value(for: key) {
            await self.refresh(key: key, variant: variant, format: format, kept: kept, requestID: requestID)
        }
    }

    /// Asks the upstream (conditionally when a variant is kept) and makes the variant.
    private func refresh(key: PhotoKey, variant: PhotoVariant, format: PhotoFormat, kept: PhotoEntry?, requestID: String) async -> Outcome {
        let response: UpstreamResponse
        do {
            response = try await gateway.image(path: key.path, requestID: requestID, validators: kept?.validators)
        } catch .notFound {
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "missing"])
            cache.remove(key)
            cache.keep(.status(.missing, at: clock.date), for: .status(of: key.path))
            return .missing
        } catch {
            guard var stale = kept else {
                metrics.increment("petspot_photo_cache_total", labels: ["outcome": "failed"])
                return .failed(status: error.visitorStatus)
            }
            // Stale on error: the kept variant, asked again after a short pause, not per request.
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "stale"])
            stale.checkedAt = clock.date.addingTimeInterval(min(settings.retryAfterFailureSeconds, settings.ttlSeconds) - settings.ttlSeconds)
            cache.keep(stale, for: key)
            return .photo(stale)
        }
        if response.status == 304, var revalidated = kept {
            metrics.increment("petspot_photo_cache_total", labels: ["outcome": "revalidated"])
            revalidated.checkedAt = clock.date
            cache.keep(revalidated, for: key)
            return .photo(revalidated)
        }
        metrics.increment("petspot_photo_cache_total", labels: ["outcome": "miss"])
        switch await make(variant, format: format, from: response, path: key.path, requestID: requestID) {
        case .success(let entry):
            cache.keep(entry, for: key)
            cache.remove(.status(of: key.path))
            return .photo(entry)
        case .failure(.busy):
            return .failed(status: 503)
        case .failure(.image(let failure)):
            if failure != .unavailable {
                cache.remove(key)
                cache.keep(.status(.unusable, at: clock.date), for: .status(of: key.path))
            }
            return .failed(status: 502)
        }
    }

    private enum MakeFailure: Error {
        case busy
        case image(ImageFailure)
    }

    /// The variant of an upstream answer: SVG as it came, anything else converted on the pool.
    private func make(
        _ variant: PhotoVariant,
        format: PhotoFormat,
        from response: UpstreamResponse,
        path: String,
        requestID: String
    ) async -> Result<PhotoEntry, MakeFailure> {
        let validators = PhotoValidators(headers: response.headers)
        let type = (response.headers[.contentType] ?? "").lowercased()
        if type.hasPrefix("image/svg+xml") {
            // Never rasterized (the resizer decodes raster formats only): served as it came, sandboxed by the CSP.
            return .success(
                PhotoEntry(
                    kind: .image,
                    bytes: response.body,
                    contentType: "image/svg+xml",
                    width: nil,
                    height: nil,
                    etag: ConditionalGet.etag(for: response.body),
                    validators: validators,
                    checkedAt: clock.date
                )
            )
        }
        let source = response.body
        let (box, quality, maxPixels) = (variant.box, settings.quality, settings.maxPixels)
        let started = ContinuousClock.now
        let converted = await pool.run { () -> Result<EncodedImage, ImageFailure> in
            do throws(ImageFailure) {
                switch format {
                case .webp:
                    return .success(try ImageResizer.webp(source, maxWidth: box.width, maxHeight: box.height, quality: quality, maxPixels: maxPixels))
                case .jpeg:
                    // JPEG needs a higher quality than WebP for the same look (libvips's default is 75 for both).
                    return .success(
                        try ImageResizer.jpeg(source, maxWidth: box.width, maxHeight: box.height, quality: quality + 5, maxPixels: maxPixels)
                    )
                }
            } catch {
                return .failure(error)
            }
        }
        guard let converted else {
            metrics.increment("petspot_photo_conversions_total", labels: ["result": "busy"])
            return .failure(.busy)
        }
        switch converted {
        case .success(let image):
            let elapsed = ContinuousClock.now - started
            metrics.increment("petspot_photo_conversions_total", labels: ["result": "ok"])
            logger.debug(
                "photo variant made",
                metadata: [
                    "path": "\(path)", "variant": "\(variant)\(format.keySuffix)", "source_bytes": "\(source.count)", "bytes": "\(image.bytes.count)",
                    "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
                ]
            )
            return .success(
                PhotoEntry(
                    kind: .image,
                    bytes: image.bytes,
                    contentType: image.contentType,
                    width: image.width,
                    height: image.height,
                    etag: ConditionalGet.etag(for: image.bytes),
                    validators: validators,
                    checkedAt: clock.date
                )
            )
        case .failure(let failure):
            metrics.increment("petspot_photo_conversions_total", labels: ["result": failure.label])
            logger.warning(
                "upstream photo refused",
                metadata: [
                    "path": "\(path)", "reason": "\(failure.label)", "detail": "\(failure)", "request_id": "\(requestID)",
                    "content_type": "\(type)", "bytes": "\(source.count)",
                ]
            )
            return .failure(.image(failure))
        }
    }
}

extension ImageProxy {
    /// The proxy as configured: memory and disk budgets, TTL, pixel limit; libvips started now,
    /// so a missing library shows at startup, not on the first photo.
    static func make(
        configuration: AppConfiguration,
        gateway: AnnouncementGateway,
        metrics: Metrics,
        logger: Logger,
        clock: DayClock,
        placeholder: [UInt8]? = nil
    ) throws -> ImageProxy {
        guard ImageResizer.start() else {
            throw StartupError(setting: "libvips", problem: "libvips did not start (is libvips42 installed?)")
        }
        let cache = try PhotoCache.make(CacheBudgets(configuration).photos, setting: "--image-cache-dir / PETSPOT_IMAGE_CACHE_DIR")
        var settings = Settings()
        settings.ttlSeconds = configuration.photoTTLSeconds
        settings.maxPixels = configuration.maxPhotoMegapixels * 1_000_000
        return ImageProxy(
            gateway: gateway,
            cache: cache,
            pool: .shared,
            settings: settings,
            metrics: metrics,
            logger: logger,
            clock: clock,
            placeholder: placeholder
        )
    }
}
