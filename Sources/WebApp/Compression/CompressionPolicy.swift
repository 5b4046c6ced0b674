import MicroHTTP

/// What is compressed and how: the one configuration of the compression step (`BodyCompression`),
/// the way nginx keeps `gzip_types`, `gzip_min_length` and `gzip_comp_level` in its configuration.
/// The figures behind each level are in docs/compression.md.
struct CompressionPolicy: Sendable {
    /// One level of effort: Brotli's quality and window, and gzip's level.
    struct Level: Sendable, Equatable {
        let brotliQuality: Int32
        let brotliWindowBits: Int32
        let gzipLevel: Int32
    }

    /// Bodies shorter than this go as they are: one TCP segment either way.
    let minimumBytes: Int
    /// Bodies larger than this are never compressed per request: their forms are made by whoever
    /// keeps them (off the request path), and until then they go uncompressed.
    let largestQuickBytes: Int
    /// Files read once per process (static files): Brotli 11, gzip 9.
    let thorough: Level
    /// An answer kept for reuse, made on the request that keeps it (a server thread): Brotli 5 and
    /// gzip 6; Brotli 11 took 40 ms on a 26 KB list page for 1.6 points of size.
    let kept: Level
    /// A body too large for a server thread (the whole API list), made on the background
    /// compression thread: Brotli 7 with a 16 MiB window, gzip 6.
    let large: Level
    /// An answer made for one request (a visitor's own location): Brotli 1, gzip 1, only the coding
    /// the client gets. Its forms carry validators of their own (`CompressedForms.tag`).
    let quick: Level

    /// The site's policy.
    static let standard = CompressionPolicy(
        minimumBytes: 1400,
        largestQuickBytes: 256 * 1024,
        thorough: Level(brotliQuality: 11, brotliWindowBits: 22, gzipLevel: 9),
        kept: Level(brotliQuality: 5, brotliWindowBits: 22, gzipLevel: 6),
        large: Level(brotliQuality: 7, brotliWindowBits: 24, gzipLevel: 6),
        quick: Level(brotliQuality: 1, brotliWindowBits: 22, gzipLevel: 1)
    )

    /// Text types: HTML, CSS, JavaScript, JSON and GeoJSON, XML and Atom. Not SVG: ours are under
    /// `minimumBytes`, and the photo proxy passes an upstream's SVG photo as it came.
    func isCompressible(contentType: String) -> Bool {
        // The types of our own pages and feeds, as their handlers write them, by value: parsing the
        // media type cost ~2,000 instructions on every located answer (callgrind).
        if contentType == "text/html; charset=utf-8" || contentType == "application/atom+xml; charset=utf-8" { return true }
        let type = CompressionPolicy.mediaType(contentType)
        if type == "image/svg+xml" { return false }
        return type.hasPrefix("text/") || type == "application/json" || type == "application/javascript"
            || type == "application/xml" || type.hasSuffix("+json") || type.hasSuffix("+xml")
    }

    /// The media type of a `Content-Type` value (before any `;`, without spaces), lowercased byte by
    /// byte: Foundation's `lowercased()` on every answer cost more than a tenth of the step on a
    /// located page (docs/performance.md "Located pages").
    static func mediaType(_ contentType: String) -> String {
        var bytes: [UInt8] = []
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
