import Foundation
import PetAPIClient

/// Where a kept resource is found: for a photo, the upstream path below `/images/` (decoded) and
/// the variant's name (`w640`, `full`), or `status` for what is known of the photo as a whole
/// (missing upstream, or not a usable image); for a map tile, `z/x/y` and `tile`.
struct KeptResourceKey: Hashable, Sendable {
    let path: String
    let variant: String

    init(path: String, variant: PhotoVariant, format: PhotoFormat = .webp) {
        self.path = path
        self.variant = variant.description + format.keySuffix
    }

    /// The key of the photo's status (missing or unusable), shared by all its variants.
    static func status(of path: String) -> KeptResourceKey { KeptResourceKey(path: path, variantName: "status") }

    init(path: String, variantName: String) {
        self.path = path
        variant = variantName
    }
}

/// One kept upstream resource as we answer it: a photo variant we made, a map tile, or what is
/// known of a missing or unusable one (`KeptResourceCache`, behind `RevalidatingProxy`).
struct KeptResource: Sendable, Codable {
    enum Kind: String, Sendable, Codable {
        /// A variant we made (WebP), or an SVG passed through as it came.
        case image
        /// The upstream answered 404.
        case missing
        /// The upstream's bytes are no image we serve (a bomb, truncated, a lying file).
        case unusable
    }

    let kind: Kind
    let bytes: [UInt8]
    let contentType: String
    /// Size of the variant (nil for an SVG, which is never rasterized).
    let width: Int?
    let height: Int?
    /// Our strong ETag of `bytes`.
    let etag: String
    /// What the upstream sent to identify the original, for revalidation.
    let validators: PhotoValidators?
    /// When the upstream last confirmed it (fetched, or a 304): fresh for the photo TTL after.
    var checkedAt: Date
    /// Seconds it stays fresh after `checkedAt` when its origin said so (a map tile's
    /// `Cache-Control`); nil: the cache's own TTL (photos).
    var lifetime: Double? = nil

    /// A status entry (missing or unusable) with no bytes.
    static func status(_ kind: Kind, at now: Date) -> KeptResource {
        KeptResource(kind: kind, bytes: [], contentType: "", width: nil, height: nil, etag: "", validators: nil, checkedAt: now)
    }

    /// Whether the upstream confirmed it less than `lifetime` (else `ttl`) seconds before `now`.
    func isFresh(ttl: Double, now: Date) -> Bool {
        now.timeIntervalSince(checkedAt) < (lifetime ?? ttl)
    }

    /// What it costs in the memory budget: its bytes plus a rough fixed overhead.
    var cost: Int { bytes.count + 256 }
}
