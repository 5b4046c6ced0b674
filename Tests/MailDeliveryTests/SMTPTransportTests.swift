import Foundation
import MailDelivery
import Testing

/// A transport to the sink on `port` with a test's settings.
private func transport(
    port: Int,
    userinfo: String = "",
    tls: SMTPSettings.TLS? = nil,
    timeoutSeconds: Int = 10,
    caFile: String? = nil
) throws -> SMTPTransport {
    let settings = try SMTPSettings(url: "smtp://\(userinfo)127.0.0.1:\(port)", tls: tls, timeoutSeconds: timeoutSeconds, caFile: caFile)
    return try SMTPTransport(settings: settings)
}

/// A mode file for the sink's `--mode-file`, holding `mode`.
private func modeFile(_ mode: String) throws -> URL {
    let file = try MailTestSupport.temporaryFolder().appendingPathComponent("mode")
    try Data(mode.utf8).write(to: file)
    return file
}

@Suite struct SMTPTransportTests {
    @Test func message_sent_to_the_sink_arrives_byte_for_byte_with_its_envelope() async throws {
        // Arrange
        let sink = try SMTPSink()
        defer { sink.stop() }
        let text = ".kropka na początku\nFrom the shelter\n" + String(repeating: "długa linia ", count: 200) + "\n"
        let bytes = try sampleMessage(text: text).rendered()
        // Act
        let outcome = try await transport(port: sink.port).deliver(bytes, from: "bounces@petspot.example", to: "ola@example.org")
        // Assert
        #expect(outcome == .sent)
        let received = try sink.received()
        try #require(received.count == 1)
        #expect(received[0].bytes == bytes)
        #expect(received[0].mailFrom == "bounces@petspot.example")
        #expect(received[0].rcptTos == ["ola@example.org"])
        #expect(received[0].tls == false)
    }

    @Test func two_messages_on_one_transport_share_one_connection() async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let smtp = try transport(port: sink.port)
        let first = await smtp.deliver(try sampleMessage(id: "a.1@petspot.example").rendered(), from: "b@petspot.example", to: "x@example.org")
        let second = await smtp.deliver(try sampleMessage(id: "a.2@petspot.example").rendered(), from: "b@petspot.example", to: "y@example.org")
        #expect(first == .sent && second == .sent)
        let received = try sink.received()
        #expect(received.map(\.rcptTos) == [["x@example.org"], ["y@example.org"]])
        #expect(received.map(\.connection) == [1, 1])
        #expect(try sink.connectionCount() == 1)
    }

    @Test func starttls_with_a_self_signed_certificate_and_auth_delivers() async throws {
        // Arrange: a certificate for 127.0.0.1 made by openssl, trusted through caFile.
        let folder = try MailTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cert = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        try MailTestSupport.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        let sink = try SMTPSink(options: ["--tls-cert", cert, "--tls-key", key, "--require-tls", "--auth", "alerts:s3cr%t pass"])
        defer { sink.stop() }
        // Act: the password percent-encoded in the URL, as an operator would write it.
        let smtp = try transport(port: sink.port, userinfo: "alerts:s3cr%25t%20pass@", tls: .required, caFile: cert)
        let outcome = await smtp.deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        // Assert
        #expect(outcome == .sent)
        let received = try sink.received()
        #expect(received.count == 1)
        #expect(received.first?.tls == true)
        #expect(received.first?.authLogin == "alerts")
    }

    @Test func wrong_password_is_temporary_not_the_recipients_fault() async throws {
        let sink = try SMTPSink(options: ["--auth", "alerts:right"])
        defer { sink.stop() }
        let smtp = try transport(port: sink.port, userinfo: "alerts:wrong@", tls: SMTPSettings.TLS.none)
        let outcome = await smtp.deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        let reason = try #require(temporaryReason(outcome), "expected .temporary, got \(outcome)")
        #expect(reason.hasPrefix("login denied: 535"))
        #expect(try sink.received().isEmpty)
    }

    @Test func required_tls_against_a_server_without_starttls_is_temporary() async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let outcome = try await transport(port: sink.port, tls: .required).deliver(
            try sampleMessage().rendered(),
            from: "b@petspot.example",
            to: "ola@example.org"
        )
        #expect(temporaryReason(outcome) != nil, "expected .temporary, got \(outcome)")
        #expect(try sink.received().isEmpty)
    }

    @Test func reply_451_at_rcpt_is_temporary() async throws {
        let mode = try modeFile("451")
        defer { try? FileManager.default.removeItem(at: mode.deletingLastPathComponent()) }
        let sink = try SMTPSink(options: ["--mode-file", mode.path])
        defer { sink.stop() }
        let outcome = try await transport(port: sink.port).deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        #expect(outcome == .temporary("451 4.3.0 try later"))
    }

    @Test func reply_550_at_rcpt_is_permanent() async throws {
        let mode = try modeFile("550")
        defer { try? FileManager.default.removeItem(at: mode.deletingLastPathComponent()) }
        let sink = try SMTPSink(options: ["--mode-file", mode.path])
        defer { sink.stop() }
        let outcome = try await transport(port: sink.port).deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        #expect(outcome == .permanent("550 5.1.1 no such user"))
        #expect(try sink.received().isEmpty)
    }

    @Test func handle_recovers_after_a_refused_recipient() async throws {
        let mode = try modeFile("550")
        defer { try? FileManager.default.removeItem(at: mode.deletingLastPathComponent()) }
        let sink = try SMTPSink(options: ["--mode-file", mode.path])
        defer { sink.stop() }
        let smtp = try transport(port: sink.port)
        let refused = await smtp.deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "gone@example.org")
        try Data("ok".utf8).write(to: mode)
        let accepted = await smtp.deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        #expect(refused == .permanent("550 5.1.1 no such user"))
        #expect(accepted == .sent)
        #expect(try sink.received().map(\.rcptTos) == [["ola@example.org"]])
    }

    @Test func server_down_is_temporary() async throws {
        // Arrange: a port that was just listening and no longer is.
        let sink = try SMTPSink()
        let port = sink.port
        sink.stop()
        // Act
        let outcome = try await transport(port: port).deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        // Assert
        let reason = try #require(temporaryReason(outcome), "expected .temporary, got \(outcome)")
        #expect(!reason.isEmpty)
    }

    @Test func server_that_hangs_is_temporary_after_the_timeout() async throws {
        let mode = try modeFile("hang")
        defer { try? FileManager.default.removeItem(at: mode.deletingLastPathComponent()) }
        let sink = try SMTPSink(options: ["--mode-file", mode.path])
        defer { sink.stop() }
        let smtp = try transport(port: sink.port, timeoutSeconds: 2)
        let outcome = await smtp.deliver(try sampleMessage().rendered(), from: "b@petspot.example", to: "ola@example.org")
        let reason = try #require(temporaryReason(outcome), "expected .temporary, got \(outcome)")
        #expect(reason.lowercased().contains("timeout"))
    }

    @Test func envelope_address_with_a_line_break_is_refused_before_any_command() async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let outcome = try await transport(port: sink.port).deliver(
            try sampleMessage().rendered(),
            from: "b@petspot.example",
            to: "ola@example.org>\r\nRCPT TO:<evil@example.org"
        )
        guard case .permanent = outcome else {
            Issue.record("expected .permanent, got \(outcome)")
            return
        }
        #expect(try sink.received().isEmpty)
        #expect(try sink.connectionCount() == 0)
    }

    @Test func description_names_the_relay_without_the_password() throws {
        let smtp = try SMTPTransport(settings: try SMTPSettings(url: "smtp://alerts:hunter2@relay.example:587", tls: nil))
        #expect(smtp.description.contains("smtp://alerts:***@relay.example:587"))
        #expect(!smtp.description.contains("hunter2"))
    }
}
