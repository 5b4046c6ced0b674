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
/// - A user of the one `RevalidatingProxy`: variants are kept for the photo TTL, so a warm photo
///   costs no upstream call, not even a revalidation, and is answered on the server thread. After
///   the TTL one conditional call (the upstream's ETag/Last-Modified) revalidates it; a 304 keeps
///   the variant without converting again. An upstream failure serves the kept variant (stale on
///   error). A missing photo (404) and an unusable one (a bomb, a truncated or lying file) are
///   remembered for the TTL under the photo's status key, shared by its variants.
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

    /// One variant of one photo: what the proxy keeps and fetches by.
    struct Wanted: Hashable, Sendable {
        let path: String
        let variant: PhotoVariant
        let format: PhotoFormat
    }

    /// What a request for a photo comes to.
    typealias Outcome = RevalidatingProxy<Wanted>.Outcome

    /// Opened directly, an SVG must not run script or load anything in our origin.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    let pool: ConversionPool
    let settings: Settings
    let metrics: Metrics
    let logger: Logger
    /// Browsers and CDNs may keep a variant as long as we do: a photo does not change under its name.
    let cachePolicy: CachePolicy
    /// The app's clock: kept answers expire by its monotonic reading, a photo's own freshness by its
    /// wall-clock date (a variant outlives the process in the disk cache).
    let clock: DayClock
    /// The body of a missing photo's 404: `Public/img/photo-placeholder.png`, so an `<img>` or an
    /// app shows a neutral picture instead of a broken image; nil answers the HTML 404 page.
    let placeholder: [UInt8]?
    /// The kept variants, their revalidation and the single flight.
    let proxy: RevalidatingProxy<Wanted>

    /// Variants by path and variant, in memory and optionally on disk.
    var cache: KeptResourceCache { proxy.cache }

    init(
        gateway: AnnouncementGateway,
        cache: KeptResourceCache,
        pool: ConversionPool,
        settings: Settings,
        metrics: Metrics,
        logger: Logger,
        clock: DayClock,
        placeholder: [UInt8]? = nil
    ) {
        self.clock = clock
        self.placeholder = placeholder
        self.pool = pool
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        cachePolicy = .lasting(seconds: Int(settings.ttlSeconds))
        let converter = Converter(pool: pool, settings: settings, metrics: metrics, logger: logger, clock: clock)
        let rules = RevalidatingProxy<Wanted>.Rules(
            metric: "petspot_photo_cache_total",
            ttlSeconds: settings.ttlSeconds,
            retryAfterFailureSeconds: min(settings.retryAfterFailureSeconds, settings.ttlSeconds),
            cacheKey: { KeptResourceKey(path: $0.path, variant: $0.variant, format: $0.format) },
            statusKey: { .status(of: $0.path) },
            fetch: { wanted, validators, requestID throws(UpstreamFailure) in
                try await gateway.image(path: wanted.path, requestID: requestID, validators: validators)
            },
            transform: { wanted, response, requestID in
                switch await converter.make(wanted.variant, format: wanted.format, from: response, path: wanted.path, requestID: requestID) {
                case .success(let entry): return .entry(entry)
                case .failure(.busy): return .failed(status: .serviceUnavailable, unusable: false)
                case .failure(.image(let failure)): return .failed(status: .badGateway, unusable: failure != .unavailable)
                }
            }
        )
        proxy = RevalidatingProxy(cache: cache, rules: rules, metrics: metrics, clock: clock)
    }

    // MARK: Answers

    /// What a photo request needs: the variant (or the remembered miss) when it is in memory and
    /// fresh, else the upstream and a conversion.
    func need(path: String, variant: PhotoVariant, format: PhotoFormat = .webp, requestID: String) -> Need<Outcome> {
        proxy.need(Wanted(path: path, variant: variant, format: format), requestID: requestID)
    }

    /// The answer for an outcome: the variant (reusable while fresh), the placeholder's 404, or the error.
    func answer(_ outcome: Outcome, request: Request) throws(HTTPError) -> Reply {
        let now = clock.date
        switch outcome {
        case .entry(let entry, _):
            var response = Response(status: .ok, body: entry.bytes)
            response.headers[.contentType] = entry.contentType
            response.headers[.eTag] = entry.etag
            response.headers[.contentSecurityPolicy] = ImageProxy.contentSecurityPolicy
            // A raster variant's encoding follows `Accept` (`PhotoFormat`): caches must keep each apart.
            if entry.contentType != "image/svg+xml" { response.headers[.vary] = "Accept" }
            // While fresh, the same bytes are right for every request of this URL: the server
            // may answer them itself (`CachePolicy.keptUntil`).
            let left = proxy.lifetime(of: entry) - now.timeIntervalSince(entry.checkedAt)
            let until = left >= 1 ? clock.now() + .milliseconds(Int64(left * 1000)) : nil
            return Reply(ConditionalGet.answer(response, request: request), cache: cachePolicy.with(until: until))
        case .missing:
            guard let placeholder else { throw HTTPError(404, .errorPhotoNotFound) }
            // Still a 404 (the photo is gone), but with a picture as its body. The miss is kept for
            // the photo TTL (`RevalidatingProxy.Rules.statusKey`), so caches may keep this answer as long.
            var response = Response(status: .notFound, body: placeholder)
            response.headers[.contentType] = "image/png"
            return Reply(response, cache: cachePolicy)
        case .failed(let status):
            // A full conversion queue (503) is over in a moment.
            var error = HTTPError(status, .errorPhotoFailed)
            if status == 503 { error.retryAfter = 1 }
            throw error
        }
    }
}

/// Makes a variant of an upstream answer (the proxy's transform for photos).
private struct Converter: Sendable {
    let pool: ConversionPool
    let settings: ImageProxy.Settings
    let metrics: Metrics
    let logger: Logger
    let clock: DayClock

    enum MakeFailure: Error {
        case busy
        case image(ImageFailure)
    }

    /// The variant of an upstream answer: SVG as it came, anything else converted on the pool.
    func make(
        _ variant: PhotoVariant,
        format: PhotoFormat,
        from response: UpstreamResponse,
        path: String,
        requestID: String
    ) async -> Result<KeptResource, MakeFailure> {
        let validators = PhotoValidators(headers: response.headers)
        let type = (response.headers[.contentType] ?? "").lowercased()
        if type.hasPrefix("image/svg+xml") {
            // Never rasterized (the resizer decodes raster formats only): served as it came, sandboxed by the CSP.
            return .success(
                KeptResource(
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
                    return .success(
                        try ImageResizer.webp(source, maxWidth: box.width, maxHeight: box.height, quality: quality, maxPixels: maxPixels)
                    )
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
                    "path": "\(path)", "variant": "\(variant)\(format.keySuffix)", "source_bytes": "\(source.count)",
                    "bytes": "\(image.bytes.count)",
                    "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
                ]
            )
            return .success(
                KeptResource(
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
        let cache = try KeptResourceCache.make(CacheBudgets(configuration).photos, setting: "--image-cache-dir / PETSPOT_IMAGE_CACHE_DIR")
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
