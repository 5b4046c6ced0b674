import Foundation
import HTTPTypes
import MicroHTTP
import TestSupport
import Testing
import WebApp

extension ServerIntegration {
    /// The photo cache (docs/photos.md): warm photos cost no upstream call, revalidation after
    /// the photo TTL, stale on error, missing photos remembered, one flight per key, disk tier.
    @Suite("Photo cache")
    struct PhotoCacheTests {
        @Test func a_warm_photo_makes_no_upstream_call_not_even_a_revalidation() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                let first = try await app.get("/images/phone.jpg?w=640")
                #expect(first.status == 200)
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 1)

                // Enough repeats to reach the server's own kept answers too.
                var later: [Fetched] = []
                for _ in 0..<5 { later.append(try await app.get("/images/phone.jpg?w=640")) }

                #expect(later.allSatisfy { $0.status == 200 && $0.body == first.body })
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 1)
                #expect(app.stub.requestCount() == 1)
                let cacheControl = try #require(first.header("Cache-Control"))
                #expect(cacheControl == "public, max-age=86400")
            }
        }

        @Test func each_variant_is_made_once_and_kept_apart() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let small = try await app.get("/images/phone.jpg?w=320")
                let full = try await app.get("/images/phone.jpg")
                let smallAgain = try await app.get("/images/phone.jpg?w=320")

                #expect(small.body != full.body)
                #expect(smallAgain.body == small.body)
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 2)
            }
        }

        @Test func after_the_photo_ttl_a_variant_is_revalidated_with_the_upstream_etag_and_not_converted_again() async throws {
            try await withApp(configure: { $0.photoTTLSeconds = 0 }) { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                let first = try await app.get("/images/phone.jpg?w=320")

                let second = try await app.get("/images/phone.jpg?w=320")

                #expect(second.status == 200)
                #expect(second.body == first.body)
                #expect(second.header("ETag") == first.header("ETag"))
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 2)
                #expect(app.stub.lastRequestHeaders?[.ifNoneMatch] != nil)
                let metrics = try await app.get("/metrics").text
                #expect(metrics.contains(#"petspot_photo_cache_total{outcome="revalidated"} 1"#))
                #expect(metrics.contains(#"petspot_photo_conversions_total{result="ok"} 1"#))
            }
        }

        @Test func when_the_upstream_fails_a_kept_variant_is_served_stale() async throws {
            try await withApp(configure: { $0.photoTTLSeconds = 0 }) { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                let first = try await app.get("/images/phone.jpg?w=320")
                app.stub.setFault(.status(500))

                let stale = try await app.get("/images/phone.jpg?w=320")

                #expect(stale.status == 200)
                #expect(stale.body == first.body)
                #expect(try await app.get("/images/phone.jpg?w=640").status == 502)
            }
        }

        @Test func a_missing_photo_is_remembered_for_the_ttl() async throws {
            try await withApp { app in
                let first = try await app.get("/images/gone.jpg?w=320")
                let second = try await app.get("/images/gone.jpg?w=640")
                let third = try await app.get("/images/gone.jpg")

                #expect([first.status, second.status, third.status] as [Int] == [404, 404, 404])
                #expect(app.stub.requestCount(path: "/images/gone.jpg") == 1)
            }
        }

        @Test func simultaneous_requests_for_a_cold_variant_make_one_upstream_call() async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                app.stub.setFault(.slow(.milliseconds(300)))

                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<10 { group.addTask { try await app.get("/images/phone.jpg?w=640").status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }

                #expect(statuses == Array(repeating: 200, count: 10))
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 1)
            }
        }

        @Test func the_memory_cache_stays_under_its_budget() async throws {
            try await withApp(configure: { $0.imageCacheMegabytes = 1 }) { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                for index in 0..<64 {
                    app.stub.setImage(path: "/images/p\(index).jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")
                    #expect(try await app.get("/images/p\(index).jpg").status == 200)
                }

                let metrics = try await app.get("/metrics").text
                let bytes = try #require(metricValue(metrics, "petspot_photo_cache_bytes"))
                let limit = try #require(metricValue(metrics, "petspot_photo_cache_limit_bytes"))
                #expect(limit == 1024 * 1024)
                #expect(bytes <= limit)
                #expect(bytes > limit / 2, "the cache should be nearly full after 64 full variants")
                // The oldest went first: the first photo is asked for upstream again, the last is not.
                // (Another spelling of the URL, so the server's kept answers cannot give it.)
                _ = try await app.get("/images/p0.jpg?again")
                _ = try await app.get("/images/p63.jpg?again")
                #expect(app.stub.requestCount(path: "/images/p0.jpg") == 2)
                #expect(app.stub.requestCount(path: "/images/p63.jpg") == 1)
            }
        }

        @Test func the_disk_folder_keeps_variants_across_a_restart() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-photos-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let fixture = try photoFixture("oriented-gps.jpg")
            let made = try await withApp(configure: { $0.imageCacheDirectory = folder.path }) { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: fixture, contentType: "image/jpeg")
                return try await app.get("/images/phone.jpg?w=320").body
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".photo") }
            #expect(files.count == 1)
            // No original on disk: the file holds our WebP, not the JPEG with its GPS tags.
            let onDisk = try Data(contentsOf: folder.appendingPathComponent(files[0]))
            #expect(!String(decoding: onDisk, as: UTF8.self).contains("PetSpot test camera"))

            try await withApp(configure: { $0.imageCacheDirectory = folder.path }) { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: fixture, contentType: "image/jpeg")

                let again = try await app.get("/images/phone.jpg?w=320")

                #expect(again.status == 200)
                #expect(again.body == made)
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 0)
            }
        }
    }
}

/// The value of an unlabelled metric in Prometheus text (`name 123.0`).
func metricValue(_ text: String, _ name: String) -> Int? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.dropFirst(name.count + 1)).map { Int($0) }
    }
    return nil
}
