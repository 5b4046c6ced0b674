import DemoUpstream
import Foundation
import HTTPTypes
import Logging
import PetAPIClient
import TestSupport
import Testing

/// `AnnouncementGateway.checkManagementCode` against the demo upstream over loopback, which answers a photo
/// upload without a `photo` part as the backend does (product spec §10, docs/sightings.md "The ownership check").
@Suite struct OwnershipCheckTests {
    @Test func the_backends_four_answers_and_nothing_changed() async throws {
        try await DemoWriteClient.with { client in
            let made = try await client.createValid()
            let transport = UpstreamTransport.live(baseURL: client.base)
            let gateway = AnnouncementGateway(transport: transport, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let wrong = made.password == "000000" ? "111111" : "000000"

            #expect(await gateway.checkManagementCode(id: made.id, code: made.password, requestID: "r1") == .owner)
            #expect(await gateway.checkManagementCode(id: made.id, code: wrong, requestID: "r2") == .wrongCode)
            #expect(
                await gateway.checkManagementCode(id: "00000000-0000-4000-8000-000000000000", code: made.password, requestID: "r3") == .unknownPet
            )
            // The check uploaded nothing: the report still has no photo.
            let details = try DemoWriteClient.object(try await client.get("/api/v1/announcements/\(made.id)"))
            #expect(details["photoUrl"] is NSNull)
            await transport.shutdown()
        }
    }

    @Test func an_upstream_that_cannot_be_reached_is_never_taken_for_the_owner() async throws {
        // A loopback port nothing listens on.
        let transport = UpstreamTransport.live(baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        let gateway = AnnouncementGateway(transport: transport, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(await gateway.checkManagementCode(id: "x", code: "123456", requestID: "r") == .unavailable)
        await transport.shutdown()
    }

    @Test func any_other_answer_is_unavailable() async throws {
        for (status, body) in [(400, #"{"error":{"code":"INVALID_FILE_FORMAT"}}"#), (401, "{}"), (500, "{}"), (201, "{}")] {
            let transport = UpstreamTransport(get: { _ in
                UpstreamResponse(status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"], body: Array(body.utf8))
            })
            let gateway = AnnouncementGateway(transport: transport, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            #expect(await gateway.checkManagementCode(id: "x", code: "123456", requestID: "r") == .unavailable, "\(status)")
        }
    }
}
