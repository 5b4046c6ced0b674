internal import ContentCompression
import Foundation
import HTTPTypes
import MicroHTTP

/// The compression step: which answers are compressed, how (`CompressionPolicy`), and which
/// representation a request gets (the figures behind each level are in docs/compression.md).
///
/// Compressed once: whoever keeps an answer (the response cache, the static files at startup, the
/// whole API list per snapshot) keeps its `CompressedForms` beside its plain bytes, made by
/// `forms(of:level:)`. An answer made for one request (a visitor's own location) is compressed on
/// the fly at the quick level in `answer`, and only the coding the client gets is made.
///
/// Never compressed: anything but a 200; bodies under `CompressionPolicy.minimumBytes`; types that
/// do not shrink (images, tiles: only text types are compressed); answers whose cache policy no
/// cache may store (`CachePolicy.mayCompress`, read from the reply's policy, `Reply.cache`: a secret
/// next to visitor-controlled text must never be compressed, BREACH); bodies already coded.
enum BodyCompression {
    /// The configuration of the step.
    static let policy = CompressionPolicy.standard

    /// True when `response`, under the cache policy `cache`, may be sent compressed (see the type's
    /// comment for what never is).
    static func isCompressible(_ response: Response, cache: CachePolicy) -> Bool {
        cache.mayCompress && isCompressible(kept: response)
    }

    /// True when a response the server keeps may be sent compressed: the response cache keeps only
    /// answers whose policy lets the server give them again (`CachePolicy.keptUntil`), never a private
    /// or `no-store` one, so only the body and its type decide.
    static func isCompressible(kept response: Response) -> Bool {
        guard response.status == .ok, response.body.count >= policy.minimumBytes,
            !response.headers.contains(.contentEncoding), let type = response.headers.value(.contentType)
        else { return false }
        return policy.isCompressible(contentType: type)
    }

    /// Both forms of `body` at `level`.
    static func forms(of body: [UInt8], level: CompressionPolicy.Level) -> CompressedForms {
        CompressedForms(
            gzip: Gzip.compress(body, level: level.gzipLevel),
            brotli: Brotli.compress(body, quality: level.brotliQuality, windowBits: level.brotliWindowBits),
            quick: level == policy.quick
        )
    }

    /// The forms of `response` at `level` when it is compressible under `cache`; nil otherwise.
    static func forms(of response: Response, cache: CachePolicy, level: CompressionPolicy.Level) -> CompressedForms? {
        isCompressible(response, cache: cache) ? forms(of: response.body, level: level) : nil
    }

    /// What to send for a request with these `Accept-Encoding` and `If-None-Match` values: the
    /// representation chosen among `forms` (or one made now at the quick level when there are
    /// none, `compressFresh`, and the body is not over `largestQuickBytes`), with its
    /// `Content-Encoding`, ETag and `Vary`; or that representation's bodiless 304. Also says which
    /// coding the body is in.
    ///
    /// A 304 answers an `If-None-Match` naming this representation's tag, or the tag of the other
    /// form of the same plain bytes in the same coding (the quick form a first visitor got, or the
    /// kept form): it carries the tag the client sent, the one naming the bytes it holds
    /// (docs/compression.md "Validators"). `If-Modified-Since` counts only without `If-None-Match`
    /// (RFC 9110 §13.1.3), against the answer's `Last-Modified`.
    static func answer(
        _ response: Response,
        cache: CachePolicy,
        forms: CompressedForms?,
        acceptEncoding: String?,
        ifNoneMatch: String?,
        ifModifiedSince: String? = nil,
        compressFresh: Bool = true
    ) -> (Response, ContentCoding) {
        var chosen = response
        var coding = ContentCoding.identity
        var forms = forms
        if isCompressible(response, cache: cache) {
            let canMake = forms == nil && compressFresh && response.body.count <= policy.largestQuickBytes
            coding = ContentCoding.choose(
                acceptEncoding,
                available: canMake ? ContentCoding.gzip.bit | ContentCoding.brotli.bit : (forms?.available ?? 0)
            )
            if coding != .identity, forms?[coding] == nil {
                forms = quickForm(of: response.body, coding: coding)
                if forms?[coding] == nil { coding = .identity }
            }
            chosen = representation(response, coding: coding, forms: forms ?? CompressedForms())
        } else if let token = response.headers.value(.contentEncoding) {
            // A form its handler already chose (the whole API list): counted as that coding.
            coding = ContentCoding.allCases.first { $0.token == token } ?? .identity
        }
        let lastModified = ifModifiedSince == nil ? nil : chosen.headers.value(.lastModified).flatMap(HTTPDate.parse)
        guard chosen.status == .ok, chosen.headers.value(.eTag) != nil || lastModified != nil else { return (chosen, coding) }
        var validator = chosen.headers.value(.eTag)
        var notModified = HTTPDate.notModified(
            ifNoneMatch: ifNoneMatch,
            ifModifiedSince: ifModifiedSince,
            etag: validator,
            lastModified: lastModified
        )
        if !notModified, let ifNoneMatch, coding != .identity, let forms, let tag = response.headers.value(.eTag),
            let sibling = CompressedForms.tag(tag, coding: coding, quick: !forms.quick),
            EntityTag.matches(ifNoneMatch: ifNoneMatch, etag: sibling)
        {
            notModified = true
            validator = sibling
        }
        if notModified {
            chosen.status = .notModified
            chosen.body = []
            chosen.headers[.contentType] = nil
            if validator != chosen.headers.value(.eTag) { chosen.headers[.eTag] = validator }
        }
        return (chosen, coding)
    }

    /// The one form the client gets, made at the quick level.
    private static func quickForm(of body: [UInt8], coding: ContentCoding) -> CompressedForms {
        switch coding {
        case .identity: CompressedForms(quick: true)
        // The quick gzip level on the thread's own reused stream (`Gzip.compressFast`).
        case .gzip: CompressedForms(gzip: Gzip.compressFast(body), quick: true)
        case .brotli: CompressedForms(brotli: Brotli.compress(body, quality: policy.quick.brotliQuality), quick: true)
        }
    }

    /// A compressible `response` as the representation in `coding` (whose form `forms` holds): its
    /// body, `Content-Encoding`, its own ETag (`CompressedForms.tag`), and `Vary: Accept-Encoding`
    /// (identity too: a cache must not give it to a client that asked for br, nor the reverse).
    static func representation(_ response: Response, coding: ContentCoding, forms: CompressedForms) -> Response {
        var chosen = response
        if let form = forms[coding] {
            chosen.body = form
            chosen.headers[.contentEncoding] = coding.token
            if let tag = response.headers.value(.eTag), let coded = CompressedForms.tag(tag, coding: coding, quick: forms.quick) {
                chosen.headers[.eTag] = coded
            }
        }
        if let vary = response.headers.value(.vary) {
            if !ContentCoding.varyNamesAcceptEncoding(vary) { chosen.headers[.vary] = vary + ", Accept-Encoding" }
        } else {
            chosen.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        return chosen
    }
}
