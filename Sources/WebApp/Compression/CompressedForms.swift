import MicroHTTP

/// The compressed forms of one body, kept beside its plain bytes by whoever keeps the answer (the
/// response cache, the static files, the whole API list), so that each is made once, not per request.
struct CompressedForms: Sendable {
    /// The body gzip-compressed, when made.
    var gzip: [UInt8]?
    /// The body Brotli-compressed, when made.
    var brotli: [UInt8]?
    /// True for forms made at the quick level for one request (`CompressionPolicy.quick`): they
    /// carry validators of their own (`tag(_:coding:quick:)`).
    var quick: Bool

    /// Forms as given.
    init(gzip: [UInt8]? = nil, brotli: [UInt8]? = nil, quick: Bool = false) {
        self.gzip = gzip
        self.brotli = brotli
        self.quick = quick
    }

    /// The body in `coding`, when that form was made (never for identity: that is the body itself).
    subscript(coding: ContentCoding) -> [UInt8]? {
        switch coding {
        case .identity: nil
        case .gzip: gzip
        case .brotli: brotli
        }
    }

    /// The codings made, as `ContentCoding.bit`s.
    var available: UInt8 {
        (gzip == nil ? 0 : ContentCoding.gzip.bit) | (brotli == nil ? 0 : ContentCoding.brotli.bit)
    }

    /// Bytes held by the forms (they count in the byte budget of whatever keeps them).
    var byteCount: Int { (gzip?.count ?? 0) + (brotli?.count ?? 0) }

    /// The strong ETag of the form in `coding` of a body whose tag is `plainTag`: a strong
    /// validator names one sequence of bytes (RFC 9110 §8.8.3), so the quick form made for one
    /// request (`"…-br1"`) and the kept form made later (`"…-br"`) have tags of their own; nil for a
    /// malformed `plainTag`, and `plainTag` itself for identity.
    static func tag(_ plainTag: String, coding: ContentCoding, quick: Bool) -> String? {
        guard plainTag.hasSuffix("\"") else { return nil }
        guard coding != .identity else { return plainTag }
        return String(plainTag.dropLast()) + coding.tagSuffix + (quick ? "1" : "") + "\""
    }
}
