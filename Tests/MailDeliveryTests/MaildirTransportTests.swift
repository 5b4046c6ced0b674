import Foundation
import MailDelivery
import Testing

@Suite struct MaildirTransportTests {
    @Test func delivery_writes_exactly_the_bytes_into_new() async throws {
        // Arrange
        let folder = try MailTestSupport.temporaryFolder().appendingPathComponent("Maildir")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let maildir = try MaildirTransport(folder: folder)
        let bytes = try sampleMessage().rendered()
        // Act
        let outcome = await maildir.deliver(bytes, from: "b@petspot.example", to: "ola@example.org")
        // Assert
        #expect(outcome == .sent)
        let new = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("new").path)
        try #require(new.count == 1)
        #expect(new[0].hasSuffix(".petspot"))
        #expect(Array(try Data(contentsOf: folder.appendingPathComponent("new").appendingPathComponent(new[0]))) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("tmp").path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cur").path))
    }

    @Test func two_deliveries_make_two_files() async throws {
        let folder = try MailTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = try MaildirTransport(folder: folder)
        _ = await maildir.deliver([65, 13, 10], from: "b@petspot.example", to: "x@example.org")
        _ = await maildir.deliver([66, 13, 10], from: "b@petspot.example", to: "y@example.org")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("new").path).count == 2)
    }

    @Test func failed_write_is_temporary() async throws {
        // Arrange: new/ replaced by a file, so the rename cannot succeed.
        let folder = try MailTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = try MaildirTransport(folder: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("new"))
        try Data().write(to: folder.appendingPathComponent("new"))
        // Act
        let outcome = await maildir.deliver([65, 13, 10], from: "b@petspot.example", to: "x@example.org")
        // Assert
        #expect(temporaryReason(outcome) != nil, "expected .temporary, got \(outcome)")
    }
}
