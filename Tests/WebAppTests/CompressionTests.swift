import ContentCompression
import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing

@testable import WebApp

/// Compressed answers over real sockets, read as raw bytes (URLSession's libcurl would decode them)
/// and decoded here with the same zlib and Brotli the server uses.
extension ServerIntegration {
    @Suite("Compressed answers")
    struct CompressionTests {
        /// The body of `reply` decoded from its `Content-Encoding`.
        static func decoded(_ reply: RawReply) -> [UInt8]? {
            switch reply.header("Content-Encoding") {
            case nil: reply.body
            case "br": Brotli.decompress(reply.body)
            case "gzip": Gzip.decompress(reply.body)
            default: nil
            }
        }

        static func withPets<T>(_ body: (TestApp) async throws -> T) async throws -> T {
            try await withApp(listJSON: try fixture("pages-landing.json")) { app in try await body(app) }
        }

        @Test(
            arguments: [
                ("gzip, deflate, br, zstd", "br"),  // Chromium's own
                ("br", "br"),
                ("gzip", "gzip"),
                ("gzip;q=1.0, br;q=0.8", "gzip"),
                ("br;q=0, gzip", "gzip"),
                ("*", "br"),
                ("identity", nil),
                ("identity;q=0", nil),
                ("", nil),
            ] as [(String, String?)]
        )
        func each_coding_decodes_to_the_identity_bytes_with_its_own_tag_and_vary(acceptEncoding: String, coding: String?) async throws {
            try await Self.withPets { app in
                let port = app.app.port
                let plain = await rawRequest(port: port, "/pets")
                let reply = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": acceptEncoding])

                #expect(plain.status == 200)
                #expect(plain.header("Content-Encoding") == nil)
                #expect(reply.status == 200)
                #expect(reply.header("Content-Encoding") == coding)
                #expect(Self.decoded(reply) == plain.body)
                #expect(reply.header("Content-Length") == String(reply.body.count))
                #expect(reply.header("Vary") == "Accept-Language, Accept-Encoding")
                #expect(plain.header("Vary") == "Accept-Language, Accept-Encoding")
                let tag = try #require(plain.header("ETag"))
                let suffix = coding.map { $0 == "br" ? "-br" : "-gz" } ?? ""
                #expect(reply.header("ETag") == String(tag.dropLast()) + suffix + "\"")
                if coding != nil { #expect(reply.body.count * 4 <= plain.body.count) }
            }
        }

        @Test func each_tag_revalidates_only_its_own_coding_and_head_matches_get() async throws {
            try await Self.withPets { app in
                let port = app.app.port
                let brotli = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br"])
                let tag = try #require(brotli.header("ETag"))

                let again = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br", "If-None-Match": tag])
                let asGzip = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
                let asPlain = await rawRequest(port: port, "/pets", headers: ["If-None-Match": tag])
                let head = await rawRequest(port: port, "/pets", method: "HEAD", headers: ["Accept-Encoding": "br"])
                // The first answer was compressed on the fly; the page is kept (thorough form) by now.
                let get = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br"])

                #expect(again.status == 304)
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == tag)
                #expect(asGzip.status == 200)
                #expect(asGzip.header("Content-Encoding") == "gzip")
                #expect(asPlain.status == 200)
                #expect(asPlain.header("Content-Encoding") == nil)
                let gzipTag = try #require(asGzip.header("ETag"))
                let gzipAgain = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
                #expect(gzipAgain.status == 304)
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                for name in ["Content-Encoding", "Content-Length", "ETag", "Vary", "Content-Type"] {
                    #expect(head.header(name) == get.header(name), "\(name)")
                }
            }
        }

        /// A strong tag names one sequence of bytes: the first visitor's quick form and the kept form have
        /// tags of their own, and the quick form's tag still revalidates to a 304 naming the bytes the client
        /// holds once the server's hook gives the kept form (docs/compression.md "Validators").
        @Test func a_first_visitors_quick_tag_stays_a_304_once_the_server_gives_the_kept_form() async throws {
            try await Self.withPets { app in
                let port = app.app.port
                let first = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br"])
                let quickTag = try #require(first.header("ETag"))
                var later: [RawReply] = []
                for _ in 0..<3 { later.append(await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br"])) }
                let keptTag = try #require(later[2].header("ETag"))
                let byQuickTag = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br", "If-None-Match": quickTag])
                let byKeptTag = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br", "If-None-Match": keptTag])
                let asGzip = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "gzip", "If-None-Match": quickTag])

                #expect(quickTag.hasSuffix("-br1\""))
                #expect(keptTag == String(quickTag.dropLast(2)) + "\"")
                #expect(Self.decoded(first) == Self.decoded(later[2]))
                #expect(byQuickTag.status == 304)
                #expect(byQuickTag.body.isEmpty)
                #expect(byQuickTag.header("ETag") == quickTag)
                #expect(byKeptTag.status == 304)
                #expect(byKeptTag.header("ETag") == keptTag)
                #expect(asGzip.status == 200)
                #expect(asGzip.header("Content-Encoding") == "gzip")
                #expect((app.app.pipeline.responses?.targets.entries ?? 0) > 0)
            }
        }

        @Test func kept_and_fresh_pages_decode_to_the_bytes_of_the_plain_page() async throws {
            try await Self.withPets { app in
                let port = app.app.port
                // A visitor's own location: made for this request, compressed on the fly.
                let located = "/pets?lat=52.2297&lng=21.0122"
                let fresh = await rawRequest(port: port, located, headers: ["Accept-Encoding": "gzip"])
                var kept: [RawReply] = []
                // Asked again: kept by the page cache (second), then by the server's hook from the response cache.
                for _ in 0..<4 { kept.append(await rawRequest(port: port, located, headers: ["Accept-Encoding": "br"])) }
                let plain = await rawRequest(port: port, located, headers: ["Accept-Encoding": "identity"])

                #expect(fresh.header("Content-Encoding") == "gzip")
                #expect(Self.decoded(fresh) == plain.body)
                for reply in kept {
                    #expect(reply.header("Content-Encoding") == "br")
                    #expect(Self.decoded(reply) == plain.body)
                    #expect(reply.header("ETag") == kept[0].header("ETag"))
                }
                #expect((app.app.pipeline.responses?.targets.entries ?? 0) > 0)
            }
        }

        @Test func static_files_are_compressed_at_startup_and_photos_and_tiles_never() async throws {
            try await withTileApp { app, tiles in
                let port = app.app.port
                let css = await rawRequest(port: port, "/static/css/site.css", headers: ["Accept-Encoding": "br"])
                let cssPlain = await rawRequest(port: port, "/static/css/site.css")
                #expect(css.header("Content-Encoding") == "br")
                #expect(Self.decoded(css) == cssPlain.body)
                #expect(css.body.count * 4 <= cssPlain.body.count)

                app.stub.setImage(path: "/images/a.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                let tile: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 8000)
                tiles.setImage(path: "/tiles/3/4/2.png", bytes: tile, contentType: "image/png")
                for path in ["/images/a.jpg?w=320", "/tiles/3/4/2.png"] {
                    for _ in 0..<3 {
                        let reply = await rawRequest(port: port, path, headers: ["Accept-Encoding": "gzip, br"])
                        #expect(reply.status == 200, "\(path)")
                        #expect(reply.body.count > 1400, "\(path)")
                        #expect(reply.header("Content-Encoding") == nil, "\(path)")
                        #expect(reply.header("Vary")?.contains("Accept-Encoding") != true, "\(path)")
                    }
                }
            }
        }

        @Test func no_store_answers_are_never_compressed_and_metrics_count_bytes_by_coding() async throws {
            try await Self.withPets { app in
                let port = app.app.port
                let brotli = await rawRequest(port: port, "/pets", headers: ["Accept-Encoding": "br"])
                let metrics = await rawRequest(port: port, "/metrics", headers: ["Accept-Encoding": "br, gzip"])

                #expect(metrics.header("Cache-Control") == "no-store")
                #expect(metrics.body.count > 1400)
                #expect(metrics.header("Content-Encoding") == nil)
                let text = String(decoding: metrics.body, as: UTF8.self)
                let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("petspot_response_body_bytes_total{encoding=\"br\"}") })
                let counted = try #require(Double(line.split(separator: " ").last ?? ""))
                #expect(counted >= Double(brotli.body.count))
            }
        }
    }
}
