/// One size of a photo as we serve it (README "Photos"): a width (320, 640 or 1280 for `srcset`, 1200
/// for `og:image`) or "full" (longest side at most 2048, what the plain `/images/{path}` URL and
/// the details page's "open photo" give). Always WebP, never enlarged, never cropped.
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
