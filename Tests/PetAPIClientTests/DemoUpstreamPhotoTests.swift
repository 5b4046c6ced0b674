import DemoUpstream
import Foundation
import TestSupport
import Testing

/// The demo upstream's `POST /api/v1/announcements/{id}/photos` and its bounded store, over real
/// HTTP (docs/upstream.md §6, docs/demo-upstream-writes.md).
@Suite struct DemoUpstreamPhotoTests {
    @Test func created_item_joins_the_list_once_its_photo_arrives() async throws {
        try await DemoWriteClient.with { client in
            let (id, password) = try await client.createValid([("locationLatitude", "50.0614"), ("locationLongitude", "19.9372")])
            let hidden = try await client.listedIDs()
            let details = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(id)"))

            let photo = DemoWriteClient.png()
            let uploaded = try await client.upload(id: id, password: password, bytes: photo)
            let listed = try await client.listedIDs()
            let near = try await client.listedIDs("?lat=50.0614&lng=19.9372&range=1")
            let far = try await client.listedIDs("?lat=52.2297&lng=21.0122&range=5")
            let after = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(id)"))
            let image = try await client.get("/images/\(id).png")

            #expect(!hidden.contains(id))
            #expect(details["photoUrl"] is NSNull)
            #expect(uploaded.status == 201 && uploaded.text == "{}")
            #expect(listed.last == id)
            #expect(near.contains(id) && !far.contains(id))
            #expect(after["photoUrl"] as? String == "/images/\(id).png")
            #expect(image.status == 200 && image.header("Content-Type") == "image/png")
            #expect([UInt8](image.body) == photo)
        }
    }

    @Test func uploading_again_replaces_the_photo() async throws {
        try await DemoWriteClient.with { client in
            let (id, password) = try await client.createValid()
            _ = try await client.upload(id: id, password: password, bytes: DemoWriteClient.png())
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 500)
            let replaced = try await client.upload(id: id, password: password, bytes: jpeg)

            let details = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(id)"))
            let image = try await client.get("/images/\(id).jpeg")
            let old = try await client.get("/images/\(id).png")

            #expect(replaced.status == 201)
            #expect(details["photoUrl"] as? String == "/images/\(id).jpeg")
            #expect([UInt8](image.body) == jpeg && image.header("Content-Type") == "image/jpeg")
            #expect(old.status == 404)
        }
    }

    /// The type comes from the bytes (whatever the file name says) and names the served file, as the MIME subtype.
    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xDB], "jpeg"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "png"),
            (Array("GIF89a".utf8), "gif"),
            (Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8), "webp"),
            (Array("BM".utf8) + [0x46, 0, 0, 0], "bmp"),
            ([0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0], "tiff"),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), "heic"),
            ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), "heif"),
        ] as [([UInt8], String)]
    )
    func photo_type_is_read_from_the_bytes(signature: [UInt8], ext: String) async throws {
        try await DemoWriteClient.with { client in
            let (id, password) = try await client.createValid()
            let bytes = signature + Array(repeating: 0x20, count: 64)
            let uploaded = try await client.upload(id: id, password: password, bytes: bytes)
            let details = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(id)"))
            let image = try await client.get("/images/\(id).\(ext)")

            #expect(uploaded.status == 201)
            #expect(details["photoUrl"] as? String == "/images/\(id).\(ext)")
            #expect(image.header("Content-Type") == "image/\(ext)" && [UInt8](image.body) == bytes)
        }
    }

    @Test func photo_credentials_are_checked_in_the_backend_order() async throws {
        try await DemoWriteClient.with { client in
            let (id, password) = try await client.createValid()
            let wrong = String((Int(password)! - 100_000 + 1) % 900_000 + 100_000)

            let missing = try await client.upload(id: id, password: nil, bytes: DemoWriteClient.png())
            let unknown = try await client.upload(id: UUID().uuidString.lowercased(), password: password, bytes: DemoWriteClient.png())
            let refused = try await client.upload(id: id, password: wrong, bytes: DemoWriteClient.png())
            let emptyUser = try await client.upload(id: id, password: password, bytes: DemoWriteClient.png(), user: "")
            // No rate limit upstream: the right password still works after wrong ones.
            let accepted = try await client.upload(id: id, password: password, bytes: DemoWriteClient.png())

            #expect(try missing.status == 401 && DemoWriteClient.error(missing).code == "UNAUTHENTICATED")
            #expect(try unknown.status == 404 && DemoWriteClient.error(unknown).code == "NOT_FOUND")
            #expect(try refused.status == 403 && DemoWriteClient.error(refused).code == "UNAUTHORIZED")
            #expect(emptyUser.status == 401)
            #expect(accepted.status == 201)
        }
    }

    @Test func photo_body_refusals_match_the_backend() async throws {
        try await DemoWriteClient.with { client in
            let (id, password) = try await client.createValid()
            let text = try await client.upload(id: id, password: password, bytes: Array("not a picture".utf8))
            let otherField = try await client.upload(id: id, password: password, bytes: DemoWriteClient.png(), field: "image")
            let noFile = try await client.send(
                "POST",
                "/api/v1/announcements/\(id)/photos",
                body: Data("note=1".utf8),
                headers: [
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Authorization": "Basic " + Data("u:\(password)".utf8).base64EncodedString(),
                ]
            )
            let tooLarge = try await client.upload(id: id, password: password, bytes: DemoWriteClient.png(20 * 1024 * 1024 - 7))

            #expect(text.status == 400)
            let format = try DemoWriteClient.error(text)
            #expect(format.code == "INVALID_FILE_FORMAT" && format.field == "file")
            #expect(otherField.status == 500)
            #expect(noFile.status == 400)
            let missing = try DemoWriteClient.error(noFile)
            #expect(missing.code == "MISSING_FILE" && missing.field == "photo")
            #expect(try tooLarge.status == 413 && DemoWriteClient.error(tooLarge).code == "PAYLOAD_TOO_LARGE")
            #expect(!(try await client.listedIDs()).contains(id))
        }
    }

    @Test func storage_keeps_the_newest_announcements_within_its_bounds() async throws {
        try await DemoWriteClient.with(DemoBackend(maxAnnouncements: 3, maxPhotoBytes: 5_000)) { client in
            var created: [(id: String, password: String)] = []
            for _ in 0..<4 { created.append(try await client.createValid()) }
            let first = try await client.get("/api/v1/announcements/\(created[0].id)")
            let kept = try await client.get("/api/v1/announcements/\(created[1].id)")

            // Two photos of 3,008 bytes do not fit in 5,000: the older one's announcement goes.
            let photoA = try await client.upload(id: created[1].id, password: created[1].password, bytes: DemoWriteClient.png(3_000))
            let photoB = try await client.upload(id: created[2].id, password: created[2].password, bytes: DemoWriteClient.png(3_000, seed: 9))
            let listed = try await client.listedIDs()
            let dropped = try await client.get("/api/v1/announcements/\(created[1].id)")

            #expect(first.status == 404)
            #expect(kept.status == 200)
            #expect(photoA.status == 201 && photoB.status == 201)
            #expect(listed.contains(created[2].id) && !listed.contains(created[1].id))
            #expect(dropped.status == 404)
            #expect((try await client.get("/images/\(created[1].id).png")).status == 404)
        }
    }
}
