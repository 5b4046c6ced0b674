import Foundation

/// One size of a photo as we serve it (docs/photos.md): a width (320, 640 or 1280 for `srcset`, 1200
/// for `og:image`) or "full" (longest side at most 2048, what the plain `/images/{path}` URL and
/// the details page's "open photo" give). WebP, or JPEG for a client that does not take WebP
/// (`PhotoFormat`); never enlarged, never cropped.
enum PhotoVariant: Hashable, Sendable, CustomStringConvertible {
    case width(Int)
    case full

    /// The widths `srcset` offers.
    static let srcsetWidths = [320, 640, 1280]
    /// The width of `og:image` (what messengers show best).
    static let shareWidth = 1200
    /// Every width a `w` parameter may ask for: anything else would let a visitor fill the cache
    /// with sizes nobody links to.
    static let allowedWidths: Set<Int> = Set(srcsetWidths + [shareWidth])
    /// The longest side of the full variant.
    static let fullSide = 2048

    /// The variant a request asks for with its `w` parameter (none: full); nil for a width not offered.
    init?(parameter: String?) {
        guard let parameter else {
            self = .full
            return
        }
        guard let width = Int(parameter), PhotoVariant.allowedWidths.contains(width) else { return nil }
        self = .width(width)
    }

    /// The box the photo is fitted into: a width bound only, or a square for the full variant.
    var box: (width: Int, height: Int) {
        switch self {
        // 10,000,000 is libvips's largest coordinate: "no height limit".
        case .width(let width): (width, 10_000_000)
        case .full: (PhotoVariant.fullSide, PhotoVariant.fullSide)
        }
    }

    /// The `w` parameter value; nil for the full variant.
    var parameter: String? {
        switch self {
        case .width(let width): String(width)
        case .full: nil
        }
    }

    /// A name for cache keys and files: `w640`, `full`.
    var description: String { parameter.map { "w" + $0 } ?? "full" }
}

/// The encoding of a photo variant, chosen from the request's `Accept` (docs/photos.md): WebP unless
/// the client does not take it (an app's image loader that sends `Accept: image/jpeg`), then JPEG.
/// Both forms are kept apart in the photo cache; the answer says `Vary: Accept`.
enum PhotoFormat: Sendable, Hashable {
    case webp
    case jpeg

    /// WebP when `accept` is absent or gives `image/webp` a quality above zero at least as high as
    /// `image/jpeg`'s (through `image/webp`, `image/*` or `*/*`, the most specific range counting);
    /// otherwise JPEG, the format every image decoder reads.
    static func preferred(accept: String?) -> PhotoFormat {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .webp }
        var webp: (specificity: Int, q: Double) = (-1, 0)
        var jpeg: (specificity: Int, q: Double) = (-1, 0)
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0
            }
            let specificity: (String) -> Int = { subtype in
                switch type {
                case "image/" + subtype: 2
                case "image/*": 1
                case "*/*": 0
                default: -1
                }
            }
            let forWebP = specificity("webp")
            if forWebP > webp.specificity { webp = (forWebP, q) }
            let forJPEG = specificity("jpeg")
            if forJPEG > jpeg.specificity { jpeg = (forJPEG, q) }
        }
        return webp.q > 0 && webp.q >= jpeg.q ? .webp : .jpeg
    }

    /// The suffix of its cache key: none for WebP (the keys kept before JPEG existed), `.jpeg`.
    var keySuffix: String {
        switch self {
        case .webp: ""
        case .jpeg: ".jpeg"
        }
    }
}
