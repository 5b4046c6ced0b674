import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// `/images/…` (docs/upstream.md §4): the upstream's `/images/` only, image types only, with
    /// cache headers; every raster photo is served as a variant we made (docs/photos.md).
    @Suite("Image proxy")
    struct ImageProxyTests {
        /// A PNG signature followed by bytes that are not valid UTF-8, so any re-encoding would show.
        static let pngBytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x80, 0x7F, 0x01, 0xC3]
            + (0..<2000).map { UInt8($0 % 256) }

        @Test func an_image_is_served_as_a_webp_variant_with_cache_headers() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/a.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let response = try await app.get("/images/a.jpg")

                #expect(response.status == 200)
                // Never the original as it came (it may carry GPS tags): the full variant, made by us.
                #expect(response.header("Content-Type") == "image/webp")
                #expect(webpChunks([UInt8](response.body)).contains("VP8 "))
                let cacheControl = try #require(response.header("Cache-Control"))
                #expect(cacheControl.contains("max-age="))
                #expect(response.header("ETag") != nil)
                #expect(response.header("X-Content-Type-Options") == "nosniff")
                #expect(app.stub.requestCount(path: "/images/a.jpg") == 1)
            }
        }

        @Test func an_image_in_a_subfolder_passes() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/2025/b.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let response = try await app.get("/images/2025/b.jpg")

                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "image/webp")
            }
        }

        @Test func a_matching_if_none_match_on_an_image_gets_304() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/a.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                let etag = try #require(try await app.get("/images/a.jpg").header("ETag"))

                let response = try await app.get("/images/a.jpg", headers: ["If-None-Match": etag])

                #expect(response.status == 304)
                #expect(response.body.isEmpty)
            }
        }

        @Test func images_refuse_non_image_content_types_without_leaking_the_body() async throws {
            try await withApp { app in
                let secret = "<html><body>upstream-secret-admin-panel</body></html>"
                app.stub.setImage(path: "/images/evil.png", bytes: Array(secret.utf8), contentType: "text/html")

                let response = try await app.get("/images/evil.png")

                #expect(response.status == 502)
                #expect(!response.text.contains("upstream-secret-admin-panel"))
            }
        }

        @Test func images_refuse_the_wrong_content_type_fault() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/a.png", bytes: Self.pngBytes, contentType: "image/png")
                app.stub.setFault(.wrongContentType)

                let response = try await app.get("/images/a.png")

                #expect(response.status == 502)
                #expect(!response.text.contains("Sign in to Wi-Fi"))
            }
        }

        @Test func an_svg_image_gets_a_sandboxing_content_security_policy() async throws {
            try await withApp { app in
                let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#
                app.stub.setImage(path: "/images/x.svg", bytes: Array(svg.utf8), contentType: "image/svg+xml")

                let response = try await app.get("/images/x.svg")

                #expect(response.status == 200)
                let csp = try #require(response.header("Content-Security-Policy"))
                #expect(csp.contains("sandbox"))
                #expect(csp.contains("default-src 'none'"))
            }
        }

        @Test func a_missing_image_is_a_404_with_the_placeholder_png_as_its_body() async throws {
            try await withApp { app in
                let placeholder = try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/img/photo-placeholder.png"))
                let response = try await app.get("/images/missing.png")

                #expect(response.status == 404)
                #expect(response.header("Content-Type") == "image/png")
                #expect(response.body == placeholder)
                #expect(Array(response.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                // Kept like other misses: the second ask does not reach the upstream.
                let again = try await app.get("/images/missing.png?w=640")
                #expect(again.status == 404)
                #expect(again.body == placeholder)
                #expect(app.stub.requestCount(path: "/images/missing.png") == 1)
            }
        }

        @Test func an_oversized_image_is_refused() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/big.png", bytes: [UInt8](repeating: 7, count: 6 * 1024 * 1024), contentType: "image/png")

                let response = try await app.get("/images/big.png")

                #expect(response.status == 502)
                #expect(response.body.count < 1024 * 1024)
            }
        }

        @Test(arguments: [
            "/images/../api/v1/announcements",
            "/images/%2e%2e/api/health",
            "/images/%2E%2E%2Fapi%2Fhealth",
            "/images/..%2fapi/v1/announcements",
            "/images/%2F%2Fevil.example/x.png",
            "/images//evil.example/x.png",
            "/images/http://evil.example/x.png",
            "/images/http:%2F%2Fevil.example%2Fx.png",
            "/images/..\\api\\health",
            "/images/a.png%00.html",
            "/images/./a.png",
        ])
        func hostile_image_paths_never_reach_anything_but_the_upstream_images_folder(target: String) async throws {
            try await withApp(listJSON: #"{"data":[]}"#) { app in
                app.stub.setImage(path: "/images/a.png", bytes: Self.pngBytes, contentType: "image/png")
                let warm0 = try await app.get("/healthz")
                #expect(warm0.status == 200)

                let status = await rawStatus(port: app.app.port, target: target)

                #expect(status == 404 || status == 400, "\(target) → \(String(describing: status))")
                #expect(app.stub.requestCount(path: "/api/v1/announcements") == 0)
                #expect(app.stub.requestCount(path: "/api/health") == 0)
                #expect(app.stub.requestCount(path: "/evil.example/x.png") == 0)
                let total = app.stub.requestCount()
                let toImages = app.stub.requestCount(path: "/images/a.png")
                #expect(total == toImages, "the stub was asked for something outside /images/")
            }
        }

        @Test func an_image_path_is_percent_encoded_when_forwarded() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/with space.png", bytes: try photoFixture("upright.png"), contentType: "image/png")

                let response = try await app.get("/images/with%20space.png")

                #expect(response.status == 200)
                #expect(app.stub.requestCount(path: "/images/with space.png") == 1)
            }
        }
    }
}
