internal import ContentCompression
import Foundation
import HTTPTypes

/// Which answers are compressed, how, and which representation a request gets (issue: fewer bytes
/// on the wire; the figures behind each level are in docs/compression.md).
///
/// Compressed once: whoever keeps an answer (the page cache, the server's kept answers, the static
/// files at startup, the whole API list per snapshot) keeps its `CompressedForms` with it, made by
/// `forms(of:effort:)`. An answer made for one request (a visitor's own location) is compressed on
/// the fly at a fast level in `answer`, and only the coding the client gets is made.
///
/// Never compressed: anything but a 200; bodies under `minimumBytes`; types that do not shrink
/// (images, tiles: only text types are compressed); answers with `mayCompress == false` or
/// `Cache-Control: no-store` (a secret next to visitor-controlled text must never be compressed:
/// BREACH); bodies already coded.
public enum BodyCompression {
    /// Bodies shorter than this go as they are: one TCP segment either way.
    public static let minimumBytes = 1400
    /// Bodies larger than this are never compressed per request: their forms are made by whoever
    /// keeps them (off the request path), and until then they go uncompressed.
    public static let largestFreshBytes = 256 * 1024

    /// How much CPU a form may cost.
    public enum Effort: Sendable {
        /// Once per process (static files): Brotli 11, gzip 9.
        case startup
        /// Once per snapshot, on the request that keeps the page (a server thread): Brotli 5 and
        /// gzip 6; Brotli 11 took 40 ms on a 26 KB list page for 1.6 points of size.
        case kept
        /// Once per snapshot, off the request path (the whole API list): Brotli 7 with a 16 MiB
        /// window, gzip 6.
        case background
        /// Per request (a page made for one visitor): Brotli 1, gzip 1.
        case fast
    }

    /// True when `response` may be sent compressed (see the type's comment for what never is).
    public static func isCompressible(_ response: Response) -> Bool {
        guard response.status == .ok, response.mayCompress, response.closeAfterBodyBytes == nil,
            response.body.count >= minimumBytes, !response.headers.contains(.contentEncoding),
            let type = response.headers.value(.contentType), isCompressible(contentType: type)
        else { return false }
        if let cacheControl = response.headers.value(.cacheControl), HeaderText.contains(cacheControl, "no-store") { return false }
        return true
    }

    /// Text types: HTML, CSS, JavaScript, JSON and GeoJSON, XML and Atom. Not SVG: ours are under
    /// `minimumBytes`, and the photo proxy passes an upstream's SVG photo as it came.
    static func isCompressible(contentType: String) -> Bool {
        let type = HeaderText.mediaType(contentType)
        if type == "image/svg+xml" { return false }
        return type.hasPrefix("text/") || type == "application/json" || type == "application/javascript"
            || type == "application/xml" || type.hasSuffix("+json") || type.hasSuffix("+xml")
    }

    /// Both forms of `body` at `effort`.
    public static func forms(of body: [UInt8], effort: Effort) -> CompressedForms {
        let (quality, window, level): (Int32, Int32, Int32) =
            switch effort {
            case .startup: (11, 22, 9)
            case .kept: (5, 22, 6)
            case .background: (7, 24, 6)
            case .fast: (1, 22, 1)
            }
        return CompressedForms(
            gzip: Gzip.compress(body, level: level),
            brotli: Brotli.compress(body, quality: quality, windowBits: window),
            fast: effort == .fast
        )
    }

    /// `response` with forms made at `effort` when it is compressible and has none yet.
    public static func withForms(_ response: Response, effort: Effort) -> Response {
        guard response.compressed == nil, isCompressible(response) else { return response }
        var made = response
        made.compressed = forms(of: response.body, effort: effort)
        return made
    }

    /// What to send for a request with these `Accept-Encoding` and `If-None-Match` values: the
    /// representation chosen among the kept forms (or one made now at the fast level when the
    /// answer has none, `compressFresh`, and it is not over `largestFreshBytes`), with its
    /// `Content-Encoding`, ETag and `Vary`; or that representation's bodiless 304. Also says which
    /// coding the body is in.
    /// `If-Modified-Since` counts only without `If-None-Match` (RFC 9110 §13.1.3), against the
    /// answer's `Last-Modified`.
    public static func answer(
        _ response: Response,
        acceptEncoding: String?,
        ifNoneMatch: String?,
        ifModifiedSince: String? = nil,
        compressFresh: Bool = true
    ) -> (Response, ContentCoding) {
        var chosen = response
        var coding = ContentCoding.identity
        if isCompressible(response) {
            var forms = response.compressed
            let canMake = forms == nil && compressFresh && response.body.count <= largestFreshBytes
            coding = ContentCoding.choose(
                acceptEncoding,
                available: canMake
                    ? ContentCoding.gzip.bit | ContentCoding.brotli.bit
                    : (forms?.available ?? 0)
            )
            if coding != .identity, forms?[coding] == nil {
                forms = fastForm(of: response.body, coding: coding)
                if forms?[coding] == nil { coding = .identity }
            }
            chosen = representation(response, coding: coding, forms: forms ?? CompressedForms())
        } else if let token = response.headers.value(.contentEncoding) {
            // A form its handler already chose (the whole API list): counted as that coding.
            coding = ContentCoding.allCases.first { $0.token == token } ?? .identity
        }
        chosen.compressed = nil
        let lastModified = ifModifiedSince == nil ? nil : chosen.headers.value(.lastModified).flatMap(HTTPDate.parse)
        if chosen.status == .ok, chosen.headers.value(.eTag) != nil || lastModified != nil,
            HTTPDate.notModified(
                ifNoneMatch: ifNoneMatch,
                ifModifiedSince: ifModifiedSince,
                etag: chosen.headers.value(.eTag),
                lastModified: lastModified
            )
        {
            chosen.status = .notModified
            chosen.body = []
            chosen.headers[.contentType] = nil
        }
        return (chosen, coding)
    }

    /// The one form the client gets, made at the fast level.
    private static func fastForm(of body: [UInt8], coding: ContentCoding) -> CompressedForms {
        switch coding {
        case .identity: CompressedForms(fast: true)
        case .gzip: CompressedForms(gzip: Gzip.compressFast(body), fast: true)
        case .brotli: CompressedForms(brotli: Brotli.compress(body, quality: 1), fast: true)
        }
    }

    /// A compressible `response` as the representation in `coding` (whose form `forms` holds): its
    /// body, `Content-Encoding`, its own ETag, and `Vary: Accept-Encoding` (identity too: a cache
    /// must not give it to a client that asked for br, nor the reverse).
    public static func representation(_ response: Response, coding: ContentCoding, forms: CompressedForms) -> Response {
        var chosen = response
        if let form = forms[coding] {
            chosen.body = form
            chosen.headers[.contentEncoding] = coding.token
            if let tag = response.headers.value(.eTag), tag.hasSuffix("\"") {
                chosen.headers[.eTag] = String(tag.dropLast()) + coding.tagSuffix + "\""
            }
        }
        if let vary = response.headers.value(.vary) {
            if !HeaderText.contains(vary, "accept-encoding") { chosen.headers[.vary] = vary + ", Accept-Encoding" }
        } else {
            chosen.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        return chosen
    }
}
