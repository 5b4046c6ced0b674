import Foundation
import PetDomain

/// The URLs a page gives for one photo, so pages use our variants: a `src`, the `srcset` of
/// variants, and the full variant for "open photo". Upstream raster photos get every variant; an
/// SVG (never rasterized, and sharp at any size) and an absolute photo on another host (not ours
/// to resize) get their one URL.
struct PhotoLinks: Sendable, Equatable {
    /// The `src`: the variant `width` wide, or the one URL.
    let src: String
    /// `/images/x?w=320 320w, …?w=640 640w, …?w=1280 1280w`; nil for a single URL.
    let srcset: String?
    /// The full variant (longest side 2048), or the one URL.
    let full: String

    /// The links of `photo` with a `src` of the variant `width` wide; nil without a photo.
    init?(_ photo: Photo?, width: Int) {
        guard let photo else { return nil }
        let base = PhotoLinks.publicURL(of: photo)
        guard PhotoLinks.isResized(photo) else {
            src = base
            srcset = nil
            full = base
            return
        }
        src = PhotoLinks.variant(base, .width(width))
        srcset = PhotoVariant.srcsetWidths.map { "\(PhotoLinks.variant(base, .width($0))) \($0)w" }.joined(separator: ", ")
        full = base
    }

    /// Only the `src` of `init(_:width:)`, for a feed entry's enclosure: the `srcset` it does not
    /// use was most of the cost of writing an entry (callgrind).
    static func src(_ photo: Photo?, width: Int) -> String? {
        guard let photo else { return nil }
        let base = PhotoLinks.publicURL(of: photo)
        return isResized(photo) ? variant(base, .width(width)) : base
    }

    /// The variant for `og:image` (1200 wide, what messengers show best), as a path or absolute URL.
    static func share(_ photo: Photo?) -> String? {
        guard let photo else { return nil }
        let base = PhotoLinks.publicURL(of: photo)
        return isResized(photo) ? variant(base, .width(PhotoVariant.shareWidth)) : base
    }

    /// The public URL of a photo: our `/images/` proxy for upstream paths, the URL itself otherwise.
    static func publicURL(of photo: Photo) -> String {
        switch photo {
        case .upstreamPath(let path):
            var below = path.hasPrefix("/images/") ? String(path.dropFirst("/images/".count)) : path
            // A photoUrl is a URL path: its `%XX` are escapes. Decoded once here, so that
            // `Route.image` encodes the file name once and the proxy hands the upstream the very
            // path it named (`my%20cat.png`, `rabat%2541.png`), never an escape of an escape.
            // A malformed escape (`100%.png`) stays literal text.
            if below.utf8.contains(UInt8(ascii: "%")), let decoded = below.removingPercentEncoding { below = decoded }
            return Route.image(path: below).path
        case .absolute(let url):
            return url.absoluteString
        }
    }

    /// `base` (our `/images/…` URL) asking for `variant`.
    static func variant(_ base: String, _ variant: PhotoVariant) -> String {
        variant.parameter.map { "\(base)?w=\($0)" } ?? base
    }

    /// Whether we serve variants of it: an upstream photo that is not an SVG.
    private static func isResized(_ photo: Photo) -> Bool {
        guard case .upstreamPath(let path) = photo else { return false }
        return !path.lowercased().hasSuffix(".svg")
    }
}
