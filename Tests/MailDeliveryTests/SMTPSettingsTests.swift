import MailDelivery
import Testing

@Suite struct SMTPSettingsTests {
    @Test func redacted_url_hides_the_password() throws {
        let settings = try SMTPSettings(url: "smtp://alerts:hunter2@relay.example:587", tls: nil)
        #expect(settings.redactedURL == "smtp://alerts:***@relay.example:587")
    }

    @Test func url_without_userinfo_is_redacted_to_itself() throws {
        #expect(try SMTPSettings(url: "smtps://relay.example:465", tls: nil).redactedURL == "smtps://relay.example:465")
    }

    @Test(arguments: [
        "http://alerts:hunter2@relay.example", "smtp://alerts:hunter2@", "smtp://alerts:hunter2@relay.example:587/x?y=1",
        "smtp://alerts:hunter2@relay.example:99999", "not a url hunter2",
    ])
    func bad_url_error_names_the_setting_but_never_the_password(url: String) throws {
        do {
            _ = try SMTPSettings(url: url, tls: nil)
            Issue.record("accepted \(url)")
        } catch {
            let text = "\(error)"
            #expect(text.contains("--smtp-url"))
            #expect(!text.contains("hunter2"))
        }
    }

    @Test func tls_defaults_to_required_except_on_loopback() throws {
        #expect(try SMTPSettings(url: "smtp://relay.example:587", tls: nil).tls == .required)
        #expect(try SMTPSettings(url: "smtp://127.0.0.1:25", tls: nil).tls == .opportunistic)
        #expect(try SMTPSettings(url: "smtp://127.8.9.10:25", tls: nil).tls == .opportunistic)
        #expect(try SMTPSettings(url: "smtp://localhost:25", tls: nil).tls == .opportunistic)
        #expect(try SMTPSettings(url: "smtp://[::1]:25", tls: nil).tls == .opportunistic)
        #expect(try SMTPSettings(url: "smtp://128.0.0.1:25", tls: nil).tls == .required)
        #expect(try SMTPSettings(url: "smtp://127.0.0.1:25", tls: SMTPSettings.TLS.none).tls == SMTPSettings.TLS.none)
    }
}
