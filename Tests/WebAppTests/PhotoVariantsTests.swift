import Foundation
import ImageResizer
import TestSupport
import Testing
import WebApp

/// A photo fixture of Tests/WebAppTests/Fixtures/photos (see its README).
func photoFixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/WebAppTests/Fixtures/photos/\(name)")))
}

/// The chunk names of a WebP's RIFF container (`VP8 `, `VP8X`, `EXIF`, …).
func webpChunks(_ bytes: [UInt8]) -> [String] {
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return [] }
    var names: [String] = []
    var offset = 12
    while offset + 8 <= bytes.count {
        names.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
        let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
        offset += 8 + size + (size & 1)
    }
    return names
}

/// A PNG whose header declares `width` × `height` pixels, with one tiny (invalid) data chunk: a
/// decompression bomb's shape without its megabytes.
func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var length = [UInt8](repeating: 0, count: 4)
        var crc = [UInt8](repeating: 0, count: 4)
        for index in 0..<4 {
            length[index] = UInt8(truncatingIfNeeded: UInt32(data.count) >> (24 - 8 * index))
            crc[index] = UInt8(truncatingIfNeeded: crc32(typed) >> (24 - 8 * index))
        }
        return length + typed + crc
    }
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]  // 8-bit RGB
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
}

/// CRC-32 as PNG uses it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

extension ServerIntegration {
    /// Photo variants made with libvips (docs/platform.md "Images"): sizes, orientation, metadata,
    /// formats, and hostile inputs, through the real server.
    @Suite("Photo variants")
    struct PhotoVariantsTests {
        /// The fixture's upright scene is 474 × 632: sky at the top, grass at the bottom.
        @Test(arguments: [("?w=320", 320, 427), ("?w=640", 474, 632), ("?w=1200", 474, 632), ("?w=1280", 474, 632), ("", 474, 632)])
        func every_variant_is_an_upright_webp_without_metadata_and_never_enlarged(query: String, width: Int, height: Int) async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let response = try await app.get("/images/phone.jpg" + query)

                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "image/webp")
                let bytes = [UInt8](response.body)
                // Read back: the size says it was turned upright (the stored pixels are landscape).
                let top = try ImageResizer.inspect(bytes, x: width - 2, y: 1)
                #expect(top.width == width)
                #expect(top.height == height)
                #expect(top.orientation == 1)
                #expect(!top.hasMetadata, "EXIF, XMP, IPTC or ICC left in the variant")
                // Sky above, grass below: the right way up, not upside down or mirrored.
                #expect(top.rgb.2 > top.rgb.0 + 60, "top right should be sky blue: \(top.rgb)")
                let bottom = try ImageResizer.inspect(bytes, x: 1, y: height - 2)
                #expect(bottom.rgb.1 > bottom.rgb.0 + 40 && bottom.rgb.1 > bottom.rgb.2, "bottom left should be grass green: \(bottom.rgb)")
                // And byte by byte: no metadata chunk in the container, no GPS or camera text anywhere.
                #expect(webpChunks(bytes).allSatisfy { ["VP8 ", "VP8L", "VP8X", "ALPH"].contains($0) }, "\(webpChunks(bytes))")
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(!text.contains("PetSpot test camera"))
                #expect(!text.contains("Exif"))
            }
        }

        @Test(arguments: [("upright.png", "image/png"), ("upright.gif", "image/gif"), ("upright.webp", "image/webp"), ("upright.avif", "image/avif")])
        func png_gif_webp_and_avif_photos_become_webp_variants(file: String, contentType: String) async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/\(file)", bytes: try photoFixture(file), contentType: contentType)

                let response = try await app.get("/images/\(file)?w=320")

                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "image/webp")
                let image = try ImageResizer.inspect([UInt8](response.body), x: 1, y: 1)
                #expect(image.width == 90)
                #expect(image.height == 120)
            }
        }

        @Test func a_photo_declaring_more_pixels_than_allowed_is_refused_before_decoding_and_the_server_keeps_serving() async throws {
            try await withApp { app in
                let bomb = pngDeclaring(width: 20_000, height: 20_000)
                #expect(bomb.count < 100)
                app.stub.setImage(path: "/images/bomb.png", bytes: bomb, contentType: "image/png")
                app.stub.setImage(path: "/images/ok.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let refused = try await app.get("/images/bomb.png?w=320")
                let again = try await app.get("/images/bomb.png")
                let good = try await app.get("/images/ok.jpg?w=320")

                #expect(refused.status == 502)
                #expect(refused.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(again.status == 502)
                // Remembered as unusable: asked for once, not per request or per variant.
                #expect(app.stub.requestCount(path: "/images/bomb.png") == 1)
                #expect(good.status == 200)
                #expect(try await app.get("/healthz").status == 200)
            }
        }

        @Test func the_pixel_limit_is_a_setting() async throws {
            try await withApp(configure: { $0.maxPhotoMegapixels = 1 }) { app in
                // 1200 × 1000 declared: over one megapixel.
                app.stub.setImage(path: "/images/big.png", bytes: pngDeclaring(width: 1200, height: 1000), contentType: "image/png")
                app.stub.setImage(path: "/images/small.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                #expect(try await app.get("/images/big.png").status == 502)
                #expect(try await app.get("/images/small.jpg").status == 200)
            }
        }

        @Test func a_truncated_photo_is_refused_not_served_half_grey() async throws {
            try await withApp { app in
                let whole = try photoFixture("oriented-gps.jpg")
                app.stub.setImage(path: "/images/cut.jpg", bytes: Array(whole.prefix(whole.count / 2)), contentType: "image/jpeg")

                let response = try await app.get("/images/cut.jpg?w=320")

                #expect(response.status == 502)
                #expect(try await app.get("/healthz").status == 200)
            }
        }

        @Test(arguments: [
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#, "image/png"),
            ("<html><body>not a photo</body></html>", "image/jpeg"),
            ("%PDF-1.4 not a photo", "image/jpeg"),
        ])
        func a_file_lying_about_its_type_is_refused_and_never_rasterized(body: String, contentType: String) async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/liar.png", bytes: Array(body.utf8), contentType: contentType)

                let response = try await app.get("/images/liar.png?w=320")

                #expect(response.status == 502)
                #expect(!response.text.contains("not a photo"))
                #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
            }
        }

        @Test func an_svg_is_never_rasterized_and_keeps_its_sandbox_for_every_variant() async throws {
            try await withApp { app in
                let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
                app.stub.setImage(path: "/images/drawing.svg", bytes: Array(svg.utf8), contentType: "image/svg+xml")

                for query in ["", "?w=320", "?w=1280"] {
                    let response = try await app.get("/images/drawing.svg" + query)
                    #expect(response.status == 200)
                    #expect(response.header("Content-Type") == "image/svg+xml")
                    #expect(response.text == svg)
                    #expect(response.header("Content-Security-Policy")?.contains("sandbox") == true)
                }
            }
        }

        @Test(arguments: ["?w=100", "?w=641", "?w=abc", "?w=", "?w=-320"])
        func a_width_that_is_not_offered_is_a_400(query: String) async throws {
            try await withApp { app in
                app.stub.setImage(path: "/images/phone.jpg", bytes: try photoFixture("oriented-gps.jpg"), contentType: "image/jpeg")

                let response = try await app.get("/images/phone.jpg" + query)

                #expect(response.status == 400)
                #expect(response.text.contains("320, 640, 1200, 1280"))
                #expect(app.stub.requestCount(path: "/images/phone.jpg") == 0)
            }
        }
    }
}
