import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// `/static/…` (docs/upstream.md §4): types, ETag/304, cache policy, HEAD, and every traversal attempt refused.
    @Suite("Static files")
    struct StaticFilesTests {
        @Test(arguments: [
            ("/static/css/site.css", "text/css"),
            ("/static/js/location.js", "text/javascript"),
            ("/static/img/logo.svg", "image/svg+xml"),
        ])
        func static_files_are_served_with_their_content_type(path: String, expectedType: String) async throws {
            try await withApp { app in
                let onDisk = try Data(
                    contentsOf: repositoryRoot.appendingPathComponent("Public")
                        .appendingPathComponent(String(path.dropFirst("/static/".count)))
                )

                let response = try await app.get(path)

                #expect(response.status == 200)
                #expect(response.header("Content-Type")?.hasPrefix(expectedType) == true)
                #expect(response.body == onDisk)
            }
        }

        @Test func static_files_carry_an_etag_and_a_long_public_cache_policy() async throws {
            try await withApp { app in
                let response = try await app.get("/static/css/site.css")

                let etag = try #require(response.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
                let cacheControl = try #require(response.header("Cache-Control"))
                #expect(cacheControl.contains("public"))
                #expect(cacheControl.contains("max-age=86400"))
            }
        }

        @Test func a_matching_if_none_match_gets_304_without_a_body() async throws {
            try await withApp { app in
                let first = try await app.get("/static/css/site.css")
                let etag = try #require(first.header("ETag"))

                let revalidated = try await app.get("/static/css/site.css", headers: ["If-None-Match": etag])

                #expect(revalidated.status == 304)
                #expect(revalidated.body.isEmpty)
                #expect(revalidated.header("ETag") == etag)
            }
        }

        @Test func a_different_if_none_match_gets_the_full_file() async throws {
            try await withApp { app in
                let response = try await app.get("/static/css/site.css", headers: ["If-None-Match": "\"0000000000000000\""])

                #expect(response.status == 200)
                #expect(!response.body.isEmpty)
            }
        }

        @Test func head_on_a_static_file_has_headers_but_no_body() async throws {
            try await withApp { app in
                // Both without a coding: each coding has its own ETag.
                let get = try await app.get("/static/css/site.css", headers: ["Accept-Encoding": "identity"])

                let head = await rawSend(
                    port: app.app.port,
                    text: "HEAD /static/css/site.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )

                #expect(head.hasPrefix("HTTP/1.1 200"))
                let parts = head.components(separatedBy: "\r\n\r\n")
                #expect(parts.count == 2)
                #expect(parts.last?.isEmpty == true)
                #expect(head.lowercased().contains("content-type: text/css"))
                #expect(head.contains(try #require(get.header("ETag"))))
            }
        }

        @Test(arguments: [
            "/static/../Package.swift",
            "/static/%2e%2e/Package.swift",
            "/static/%2E%2E%2FPackage.swift",
            "/static/..%2fPackage.swift",
            "/static/..%2FPackage.swift",
            "/static/css/../../Package.swift",
            "/static/css/site.css%00.png",
            "/static//etc/passwd",
            "/static/%2Fetc%2Fpasswd",
            "/static/..\\Package.swift",
            "/static/..%5cPackage.swift",
            "/static/css%5c..%5c..%5cPackage.swift",
            "/static/./css/site.css",
        ])
        func traversal_attempts_never_serve_a_file(target: String) async throws {
            try await withApp { app in
                // Warm up over URLSession (30 s timeout): RawHTTP gives up after 5 s on a loaded machine.
                let warm0 = try await app.get("/static/css/site.css")
                #expect(warm0.status == 200)
                let reply = await rawSend(port: app.app.port, text: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")

                let status = reply.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
                #expect(status == 404 || status == 400, "\(target) → \(reply.prefix(300))")
                #expect(!reply.contains("swift-tools-version"))
                #expect(!reply.contains("root:"))
                #expect(!reply.contains("--brand-dark"), "\(target) leaked the stylesheet")
            }
        }

        @Test func a_symlink_leading_outside_the_public_folder_is_not_served() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-public-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data("body { color: black; }\n".utf8).write(to: folder.appendingPathComponent("plain.css"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("hostname.css").path,
                withDestinationPath: "/etc/hostname"
            )
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("etc").path,
                withDestinationPath: "/etc"
            )

            try await withApp(configure: { $0.publicDirectory = folder.path }) { app in
                let plain = try await app.get("/static/plain.css")
                let linked = try await app.get("/static/hostname.css")
                let linkedFolder = try await app.get("/static/etc/hostname")

                #expect(plain.status == 200)
                #expect(plain.text == "body { color: black; }\n")
                #expect(linked.status == 404)
                #expect(linkedFolder.status == 404)
            }
        }

        @Test func an_unknown_static_file_is_a_404_html_page() async throws {
            try await withApp { app in
                let response = try await app.get("/static/css/missing.css")

                #expect(response.status == 404)
                #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            }
        }
    }
}
