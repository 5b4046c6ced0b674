import ContentCompression
import HTTPTypes
import MicroHTTP
import Testing

/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3), the codecs, and which answers are compressed.
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

    @Test func gzip_and_brotli_round_trip_and_reject_damaged_streams() throws {
        let text = Array(String(repeating: "<li class=\"card\">Burek, 2 lata</li>\n", count: 400).utf8)
        let gzip = try #require(Gzip.compress(text, level: 6))
        let brotli = try #require(Brotli.compress(text, quality: 5))
        #expect(gzip.count < text.count / 10)
        #expect(brotli.count < text.count / 10)
        #expect(Gzip.decompress(gzip) == text)
        #expect(Brotli.decompress(brotli) == text)
        #expect(Gzip.decompress(Array(gzip.dropLast(8))) == nil)
        #expect(Brotli.decompress(Array(brotli.dropLast(4))) == nil)
        #expect(Gzip.decompress(brotli) == nil)
        #expect(Gzip.decompress(gzip, limit: 100) == nil)
    }

    /// A kept compressed form holds its own size, not the encoder's worst-case room (about the input's
    /// size): the br form of a large body is what stays in memory (docs/performance.md "Memory").
    @Test func compressed_forms_hold_only_their_own_size() throws {
        let text = Array(String(repeating: "<li class=\"card\">Burek, 2 lata</li>\n", count: 4000).utf8)
        let gzip = try #require(Gzip.compress(text, level: 6))
        let brotli = try #require(Brotli.compress(text, quality: 5))
        #expect(gzip.capacity < gzip.count + gzip.count / 8 + 64)
        #expect(brotli.capacity < brotli.count + brotli.count / 8 + 64)
        #expect(brotli.capacity < text.count / 10)
    }

    static func page(_ size: Int = 8000, headers: HTTPFields = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .eTag: "\"abc\""]
        fields.append(contentsOf: headers)
        return Response(status: .ok, headers: fields, body: Array(String(repeating: "pets ", count: size / 5).utf8))
    }

    @Test func an_answer_gets_its_coding_vary_and_tag_and_a_304_only_for_its_own_tag() throws {
        let page = BodyCompression.withForms(Self.page(headers: [.vary: "Accept-Language"]), effort: .kept)
        let (brotli, coding) = BodyCompression.answer(page, acceptEncoding: "gzip, br", ifNoneMatch: nil)
        #expect(coding == .brotli)
        #expect(brotli.headers[.contentEncoding] == "br")
        #expect(brotli.headers[.eTag] == "\"abc-br\"")
        #expect(brotli.headers[.vary] == "Accept-Language, Accept-Encoding")
        #expect(Brotli.decompress(brotli.body) == page.body)
        let (plain, _) = BodyCompression.answer(page, acceptEncoding: nil, ifNoneMatch: "\"abc-br\"")
        #expect(plain.status == .ok)
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Language, Accept-Encoding")
        let (notModified, _) = BodyCompression.answer(page, acceptEncoding: "br", ifNoneMatch: "\"abc-br\"")
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        let (gzip, _) = BodyCompression.answer(page, acceptEncoding: "gzip", ifNoneMatch: "\"abc-br\"")
        #expect(gzip.status == .ok)
        #expect(gzip.headers[.eTag] == "\"abc-gz\"")
        #expect(Gzip.decompress(gzip.body) == page.body)
    }

    @Test func a_fresh_answer_is_compressed_on_the_fly_with_the_same_tag_as_the_kept_form() throws {
        let (fresh, coding) = BodyCompression.answer(Self.page(), acceptEncoding: "gzip", ifNoneMatch: nil)
        #expect(coding == .gzip)
        #expect(fresh.headers[.eTag] == "\"abc-gz\"")
        #expect(Gzip.decompress(fresh.body) == Self.page().body)
    }

    @Test func opted_out_no_store_tiny_image_and_error_answers_are_never_compressed() {
        var secret = Self.page()
        secret.mayCompress = false
        var noStore = Self.page()
        noStore.headers[.cacheControl] = "private, no-store"
        let tiny = Self.page(1000)
        var image = Self.page()
        image.headers[.contentType] = "image/webp"
        var missing = Self.page()
        missing.status = .notFound
        for response in [secret, noStore, tiny, image, missing] {
            let (sent, coding) = BodyCompression.answer(response, acceptEncoding: "br, gzip", ifNoneMatch: nil)
            #expect(coding == .identity)
            #expect(sent.headers[.contentEncoding] == nil)
            #expect(sent.body == response.body)
            #expect(BodyCompression.withForms(response, effort: .kept).compressed == nil)
        }
    }
}
