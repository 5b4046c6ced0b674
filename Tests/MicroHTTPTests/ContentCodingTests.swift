import HTTPTypes
import MicroHTTP
import Testing

/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3); the codecs and the compression step are WebApp's
/// (WebAppTests' `CompressionStepTests`).
@Suite("Content codings")
struct ContentCodingTests {
    static let both = ContentCoding.gzip.bit | ContentCoding.brotli.bit

    @Test(arguments: [
        // (header, expected coding with gzip and br available)
        ("gzip, deflate, br", ContentCoding.brotli),  // a browser: br wins the tie
        ("br, gzip", .brotli),
        ("gzip", .gzip),
        ("x-gzip", .gzip),
        ("GZIP", .gzip),
        ("br", .brotli),
        ("gzip;q=1, br;q=0.5", .gzip),  // the heavier wins over br
        ("br;q=0.5, gzip;q=0.5", .brotli),  // equal: br
        ("br;q=0, gzip", .gzip),  // br refused
        ("br;q=0, gzip;q=0", .identity),
        ("identity", .identity),  // only identity named: the others weigh 0
        ("deflate", .identity),  // nothing we make
        ("*", .brotli),  // anything: br first
        ("*;q=0.5, gzip", .gzip),
        ("*;q=0", .identity),  // nothing acceptable: identity all the same (no 406)
        ("identity;q=0", .identity),  // identity refused and nothing else named: still identity
        ("identity;q=0, gzip;q=0.1", .gzip),
        ("gzip;q=0.2, identity;q=0.5", .identity),  // identity heavier
        ("gzip;q=0.001", .gzip),  // a listed coding beats unlisted identity
        ("", .identity),  // empty: no coding wanted
        ("gzip;q=abc, br", .brotli),  // a malformed q refuses gzip
        ("br;q=2", .identity),  // so does a q above 1
        (" br ; q=0.9 ,gzip ; q=0.8", .brotli),
    ])
    func accept_encoding_chooses_by_weight_with_br_first_on_a_tie(header: String, expected: ContentCoding) {
        #expect(ContentCoding.choose(header, available: Self.both) == expected)
    }

    @Test func only_available_codings_are_chosen_and_no_header_means_identity() {
        #expect(ContentCoding.choose("br, gzip", available: ContentCoding.gzip.bit) == .gzip)
        #expect(ContentCoding.choose("br", available: ContentCoding.gzip.bit) == .identity)
        #expect(ContentCoding.choose("br, gzip", available: 0) == .identity)
        #expect(ContentCoding.choose(nil, available: Self.both) == .identity)
    }
}
