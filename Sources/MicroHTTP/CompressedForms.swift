import Foundation

/// The compressed forms of one body, kept next to it so that each is made once, not per request.
public struct CompressedForms: Sendable {
    /// The body gzip-compressed, when made.
    public var gzip: [UInt8]?
    /// The body Brotli-compressed, when made.
    public var brotli: [UInt8]?
    /// True for forms made at the fast level for one request.
    public var fast: Bool

    /// Forms as given.
    public init(gzip: [UInt8]? = nil, brotli: [UInt8]? = nil, fast: Bool = false) {
        self.gzip = gzip
        self.brotli = brotli
        self.fast = fast
    }

    /// The body in `coding`, when that form was made (never for identity: that is the body itself).
    public subscript(coding: ContentCoding) -> [UInt8]? {
        switch coding {
        case .identity: nil
        case .gzip: gzip
        case .brotli: brotli
        }
    }

    /// The codings made, as `ContentCoding.bit`s.
    public var available: UInt8 {
        (gzip == nil ? 0 : ContentCoding.gzip.bit) | (brotli == nil ? 0 : ContentCoding.brotli.bit)
    }

    /// Bytes held by the forms (they count in the byte budget of whatever keeps them).
    public var byteCount: Int { (gzip?.count ?? 0) + (brotli?.count ?? 0) }
}
