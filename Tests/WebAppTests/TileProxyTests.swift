import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import WebApp

/// A stub tile server on 127.0.0.1 (a `StubUpstream` serving `/tiles/z/x/y.png`), the app in front
/// of it with `--tile-url` pointing there; both always stopped.
func withTileApp<T>(
    configure: @escaping (inout AppConfiguration) -> Void = { _ in },
    _ body: (TestApp, StubUpstream) async throws -> T
) async throws -> T {
    let tiles = try StubUpstream.start()
    do {
        let result = try await withApp(configure: { configuration in
            configuration.tileURLTemplate = tiles.baseURL + "/tiles/{z}/{x}/{y}.png"
            configuration.tileContact = "maps@petspot.example"
            configure(&configuration)
        }) { app in
            try await body(app, tiles)
        }
        await tiles.stop()
        return result
    } catch {
        await tiles.stop()
        throw error
    }
}

extension ServerIntegration {
    /// `GET /tiles/{z}/{x}/{y}.png` (docs/platform.md "Map"): only valid tiles, proxied with our User-Agent, kept as
    /// long as the tile server's headers allow.
    @Suite("Tile proxy")
    struct TileProxyTests {
        /// A PNG signature and bytes that are not UTF-8, so any re-encoding would show.
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFE, 0x00] + (0..<500).map { UInt8($0 % 251) }

        @Test(arguments: [
            "/tiles/20/0/0.png", "/tiles/3/8/0.png", "/tiles/3/0/8.png", "/tiles/-1/0/0.png", "/tiles/03/1/1.png",
            "/tiles/3/1/1.jpg", "/tiles/3/1/1", "/tiles/3/1/1.png/x", "/tiles/3/1.png", "/tiles/3/%2B1/1.png", "/tiles/a/b/c.png",
            "/tiles/99999999999999999999/0/0.png",
        ])
        func a_tile_outside_the_pyramid_is_a_404_that_asks_the_tile_server_nothing(path: String) async throws {
            try await withTileApp { app, tiles in
                let response = try await app.get(path)

                #expect(response.status == 404)
                #expect(tiles.requestCount() == 0)
            }
        }

        @Test func a_tile_is_passed_on_with_our_user_agent_and_a_second_request_makes_no_call() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/3/4/2.png", bytes: Self.png, contentType: "image/png", headers: [.cacheControl: "max-age=3600"])

                let first = try await app.get("/tiles/3/4/2.png")
                let second = try await app.get("/tiles/3/4/2.png")

                #expect(first.status == 200)
                #expect([UInt8](first.body) == Self.png)
                #expect(first.header("Content-Type") == "image/png")
                #expect(second.status == 200)
                #expect([UInt8](second.body) == Self.png)
                #expect(tiles.requestCount(path: "/tiles/3/4/2.png") == 1)
                let agent = try #require(tiles.lastRequestHeaders?[.userAgent])
                #expect(agent.contains("PetSpot"))
                #expect(agent.contains("maps@petspot.example"))
                let cacheControl = try #require(second.header("Cache-Control"))
                #expect(cacheControl.hasPrefix("public, max-age="))
                #expect((Int(cacheControl.dropFirst("public, max-age=".count)) ?? 0) > 3500)
                let metrics = try await app.get("/metrics").text
                #expect(metrics.contains(#"petspot_tile_cache_total{outcome="miss"} 1"#))
                #expect(metrics.contains(#"petspot_tile_cache_total{outcome="hit"} 1"#))
                #expect(metrics.contains("petspot_tile_cache_entries 1"))
            }
        }

        @Test func the_highest_zoom_and_the_last_tile_of_a_zoom_are_served() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/19/524287/524287.png", bytes: Self.png, contentType: "image/png")
                tiles.setImage(path: "/tiles/0/0/0.png", bytes: Self.png, contentType: "image/png")

                let deepest = try await app.get("/tiles/19/524287/524287.png")
                let whole = try await app.get("/tiles/0/0/0.png")

                #expect(deepest.status == 200)
                #expect(whole.status == 200)
            }
        }

        @Test func a_no_store_tile_is_passed_on_but_never_kept() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/2/1/1.png", bytes: Self.png, contentType: "image/png", headers: [.cacheControl: "no-store"])

                let first = try await app.get("/tiles/2/1/1.png")
                let second = try await app.get("/tiles/2/1/1.png")

                #expect(first.status == 200 && second.status == 200)
                #expect(first.header("Cache-Control") == "no-store")
                #expect(tiles.requestCount(path: "/tiles/2/1/1.png") == 2)
            }
        }

        @Test func an_expired_tile_is_revalidated_with_its_etag_and_a_304_keeps_it() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/2/2/1.png", bytes: Self.png, contentType: "image/png", headers: [.cacheControl: "max-age=0"])
                let first = try await app.get("/tiles/2/2/1.png")
                #expect(tiles.lastRequestHeaders?[.ifNoneMatch] == nil)

                let second = try await app.get("/tiles/2/2/1.png")

                #expect(first.status == 200)
                #expect(second.status == 200)
                #expect([UInt8](second.body) == Self.png)
                #expect(tiles.requestCount(path: "/tiles/2/2/1.png") == 2)
                // The second call was conditional, and the stub answered 304 (no body came back).
                #expect(tiles.lastRequestHeaders?[.ifNoneMatch] != nil)
                #expect(second.header("Cache-Control") == "no-cache")
            }
        }

        @Test func an_unreachable_tile_server_is_a_502_and_a_kept_tile_is_served_stale() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/1/1/1.png", bytes: Self.png, contentType: "image/png", headers: [.cacheControl: "max-age=0"])
                #expect(try await app.get("/tiles/1/1/1.png").status == 200)
                tiles.setFault(.status(503))

                let stale = try await app.get("/tiles/1/1/1.png")
                let never = try await app.get("/tiles/1/0/1.png")

                #expect(stale.status == 200)
                #expect([UInt8](stale.body) == Self.png)
                #expect(never.status == 502)
            }
        }

        @Test func a_tile_server_that_refuses_connections_gives_a_502() async throws {
            try await withApp { app in
                // withApp's default tile URL: a loopback port nothing listens on.
                let response = try await app.get("/tiles/1/0/0.png")

                #expect(response.status == 502)
                #expect(response.header("Cache-Control") == "no-store")
            }
        }

        @Test func a_missing_tile_is_a_404_and_a_non_image_is_a_502() async throws {
            try await withTileApp { app, tiles in
                tiles.setImage(path: "/tiles/1/0/1.png", bytes: Array("<html>portal</html>".utf8), contentType: "text/html")

                let missing = try await app.get("/tiles/1/1/0.png")
                let notImage = try await app.get("/tiles/1/0/1.png")

                #expect(missing.status == 404)
                #expect(notImage.status == 502)
                #expect(!notImage.text.contains("portal"))
            }
        }

        @Test func tiles_kept_in_the_disk_folder_outlive_the_process() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-tiles-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configure: (inout AppConfiguration) -> Void = { $0.tileCacheDirectory = folder.path }
            try await withTileApp(configure: configure) { app, tiles in
                tiles.setImage(path: "/tiles/4/3/5.png", bytes: Self.png, contentType: "image/png", headers: [.cacheControl: "max-age=86400"])
                #expect(try await app.get("/tiles/4/3/5.png").status == 200)
                // A second app on the same folder and the same tile server: a new process's memory is empty.
                try await withApp(configure: { configuration in
                    configuration.tileURLTemplate = tiles.baseURL + "/tiles/{z}/{x}/{y}.png"
                    configure(&configuration)
                }) { restarted in
                    let second = try await restarted.get("/tiles/4/3/5.png")

                    #expect(second.status == 200)
                    #expect([UInt8](second.body) == Self.png)
                }
                #expect(tiles.requestCount(path: "/tiles/4/3/5.png") == 1)
            }
        }

        @Test func a_bad_tile_url_stops_startup_naming_the_setting() throws {
            for bad in ["https://tile.example/{z}/{x}.png", "ftp://tile.example/{z}/{x}/{y}.png", "/{z}/{x}/{y}.png"] {
                #expect(throws: ConfigurationError.self) {
                    try AppConfiguration.resolve(flags: ["tile-url": bad], environment: [:])
                }
            }
            let good = try AppConfiguration.resolve(flags: [:], environment: ["PETSPOT_TILE_URL": "http://127.0.0.1:1234/t/{z}/{x}/{y}.png?k=1"])
            #expect(good.tileURLTemplate == "http://127.0.0.1:1234/t/{z}/{x}/{y}.png?k=1")
            #expect(AppConfiguration().tileURLTemplate == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
    }
}

/// `TileFreshness`: how long the tile server's header fields let a shared cache keep a tile.
@Suite struct TileFreshnessTests {
    @Test func the_fields_decide_how_long_a_tile_is_kept() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(TileFreshness(headers: [.cacheControl: "max-age=600"], now: now) == .seconds(600))
        #expect(TileFreshness(headers: [.cacheControl: "public, max-age=600, s-maxage=60"], now: now) == .seconds(60))
        #expect(TileFreshness(headers: [.cacheControl: "no-store"], now: now) == .doNotKeep)
        #expect(TileFreshness(headers: [.cacheControl: "private, max-age=600"], now: now) == .doNotKeep)
        #expect(TileFreshness(headers: [.cacheControl: "no-cache, max-age=600"], now: now) == .seconds(0))
        #expect(TileFreshness(headers: [.cacheControl: "max-age=99999999"], now: now) == .seconds(TileFreshness.maxSeconds))
        #expect(TileFreshness(headers: [:], now: now) == .seconds(TileFreshness.defaultSeconds))
        #expect(TileFreshness(headers: [.expires: "0"], now: now) == .seconds(0))
        let dated: HTTPFields = [.date: "Sun, 06 Nov 1994 08:49:37 GMT", .expires: "Sun, 06 Nov 1994 09:49:37 GMT"]
        #expect(TileFreshness(headers: dated, now: now) == .seconds(3600))
    }
}
