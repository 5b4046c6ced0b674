import ContentCompression
import HTTPTypes
import MicroHTTP
import Testing

@testable import WebApp

/// The compression step (`BodyCompression`, `CompressionPolicy`): the codecs, which answers are
/// compressed, and each form's representation and validator (docs/compression.md).
@Suite("Compression step")
struct CompressionStepTests {
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

    /// A public page's policy: compressible when its body and type are.
    static let `public` = CachePolicy.shared(ttlSeconds: 30, staleIfErrorSeconds: 600)

    static func page(_ size: Int = 8000, headers: HTTPFields = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .eTag: "\"abc\""]
        fields.append(contentsOf: headers)
        return Response(status: .ok, headers: fields, body: Array(String(repeating: "pets ", count: size / 5).utf8))
    }

    @Test func an_answer_gets_its_coding_vary_and_tag_and_a_304_only_for_its_own_tag() throws {
        let page = Self.page(headers: [.vary: "Accept-Language"])
        let forms = BodyCompression.forms(of: page, cache: Self.`public`, level: BodyCompression.policy.kept)
        let (brotli, coding) = BodyCompression.answer(page, cache: Self.`public`, forms: forms, acceptEncoding: "gzip, br", ifNoneMatch: nil)
        #expect(coding == .brotli)
        #expect(brotli.headers[.contentEncoding] == "br")
        #expect(brotli.headers[.eTag] == "\"abc-br\"")
        #expect(brotli.headers[.vary] == "Accept-Language, Accept-Encoding")
        #expect(Brotli.decompress(brotli.body) == page.body)
        let (plain, _) = BodyCompression.answer(page, cache: Self.`public`, forms: forms, acceptEncoding: nil, ifNoneMatch: "\"abc-br\"")
        #expect(plain.status == .ok)
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Language, Accept-Encoding")
        let (notModified, _) = BodyCompression.answer(page, cache: Self.`public`, forms: forms, acceptEncoding: "br", ifNoneMatch: "\"abc-br\"")
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        let (gzip, _) = BodyCompression.answer(page, cache: Self.`public`, forms: forms, acceptEncoding: "gzip", ifNoneMatch: "\"abc-br\"")
        #expect(gzip.status == .ok)
        #expect(gzip.headers[.eTag] == "\"abc-gz\"")
        #expect(Gzip.decompress(gzip.body) == page.body)
    }

    /// A strong tag names one sequence of bytes: the quick form has a tag of its own (docs/compression.md "Validators").
    @Test func a_fresh_answer_is_compressed_on_the_fly_with_a_tag_of_its_own() throws {
        let (fresh, coding) = BodyCompression.answer(Self.page(), cache: Self.`public`, forms: nil, acceptEncoding: "gzip", ifNoneMatch: nil)
        #expect(coding == .gzip)
        #expect(fresh.headers[.eTag] == "\"abc-gz1\"")
        #expect(Gzip.decompress(fresh.body) == Self.page().body)
    }

    /// A first visitor holds the quick form; once the page is kept it is answered from the kept
    /// form, and its revalidation is still a 304 naming the bytes it holds. The reverse too (a
    /// kept form's holder meets a page made again), but never across codings.
    @Test func the_other_form_of_the_same_bytes_and_coding_is_still_a_304_with_the_clients_tag() throws {
        let page = Self.page()
        let kept = BodyCompression.forms(of: page, cache: Self.`public`, level: BodyCompression.policy.kept)
        let (quickHolder, _) = BodyCompression.answer(page, cache: Self.`public`, forms: kept, acceptEncoding: "br", ifNoneMatch: "\"abc-br1\"")
        #expect(quickHolder.status == .notModified)
        #expect(quickHolder.headers[.eTag] == "\"abc-br1\"")
        let (keptHolder, _) = BodyCompression.answer(page, cache: Self.`public`, forms: nil, acceptEncoding: "gzip", ifNoneMatch: "\"abc-gz\"")
        #expect(keptHolder.status == .notModified)
        #expect(keptHolder.headers[.eTag] == "\"abc-gz\"")
        let (otherCoding, _) = BodyCompression.answer(page, cache: Self.`public`, forms: kept, acceptEncoding: "gzip", ifNoneMatch: "\"abc-br1\"")
        #expect(otherCoding.status == .ok)
        #expect(otherCoding.headers[.eTag] == "\"abc-gz\"")
        let (otherBytes, _) = BodyCompression.answer(page, cache: Self.`public`, forms: kept, acceptEncoding: "br", ifNoneMatch: "\"abd-br1\"")
        #expect(otherBytes.status == .ok)
    }

    @Test func opted_out_no_store_tiny_image_and_error_answers_are_never_compressed() {
        // Opted out: a page whose policy no cache may store (a secret beside the visitor's text).
        let secret = Self.page()
        let noStore = AnswerHeaders.finished(Self.page(), cache: .noStore)
        let tiny = Self.page(1000)
        var image = Self.page()
        image.headers[.contentType] = "image/webp"
        var missing = Self.page()
        missing.status = .notFound
        let cases: [(Response, CachePolicy)] = [
            (secret, .private), (noStore, .noStore), (tiny, Self.`public`), (image, Self.`public`), (missing, Self.`public`),
        ]
        for (response, cache) in cases {
            let (sent, coding) = BodyCompression.answer(response, cache: cache, forms: nil, acceptEncoding: "br, gzip", ifNoneMatch: nil)
            #expect(coding == .identity)
            #expect(sent.headers[.contentEncoding] == nil)
            #expect(sent.body == response.body)
            #expect(BodyCompression.forms(of: response, cache: cache, level: BodyCompression.policy.kept) == nil)
        }
    }
}
