import Foundation

/// TLS with the SMTP server (`--smtp-tls`).
public enum SMTPTLSMode: String, Sendable, CaseIterable {
    /// STARTTLS (or `smtps://`) or no mail at all.
    case required
    /// STARTTLS when the server offers it.
    case opportunistic
    /// Plain text: a relay on the same host only.
    case none
}

extension AppConfiguration {
    /// The settings of e-mail alerts (docs/alerts.md): where mail goes, who it is from, and its signature.
    static let mailSettings: [Setting] = [
        Setting(
            "smtp-url",
            "PETSPOT_SMTP_URL",
            \.smtpURL,
            SettingKind<String>(valueName: "url", show: { _ in nil }) { text, name in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard let url = URLComponents(string: trimmed), ["smtp", "smtps"].contains(url.scheme ?? ""), url.host?.isEmpty == false else {
                    // Never echoed: the URL can carry the password.
                    throw ConfigurationError(setting: name, problem: "the value is not an smtp:// or smtps:// URL with a host")
                }
                return trimmed
            }.optional,
            help: "SMTP server of the alert mails (smtp://user:pass@host:587 or smtps://host:465); without it, mails go to --mail-dir.",
            about: "none: mails are written as files into `--mail-dir` (a Maildir), so the whole alert flow works offline; "
                + "`smtp://user:password@host:587` (STARTTLS) or `smtps://host:465`, sent through libcurl (the password is never logged)"
        ),
        Setting(
            "smtp-tls",
            "PETSPOT_SMTP_TLS",
            \.smtpTLS,
            SettingKind<SMTPTLSMode>.oneOf(SMTPTLSMode.allCases).optional,
            help: "TLS with the SMTP server: required, opportunistic or none.",
            about: "`required`, or `opportunistic` when the SMTP host is a loopback address; `none` sends in the clear"
        ),
        Setting(
            "smtp-timeout",
            "PETSPOT_SMTP_TIMEOUT",
            \.smtpTimeoutSeconds,
            .integer(1...600, "seconds"),
            help: "Seconds one SMTP delivery may take; past it the mail is retried later.",
            about: " seconds for one delivery (connect, TLS, the whole conversation); past it the mail counts as a temporary failure, retried"
        ),
        Setting(
            "mail-from",
            "PETSPOT_MAIL_FROM",
            \.mailFrom,
            SettingKind<String>.text("address", trimmed: true).optional,
            help: "The From address of alert mails.",
            about: "`alerts@HOST` of `--public-base-url`"
        ),
        Setting(
            "mail-dir",
            "PETSPOT_MAIL_DIR",
            \.mailDirectory,
            .folder,
            help: "Maildir folder alert mails are written to when no --smtp-url is set.",
            about: ": a Maildir (`new/` holds one `.eml` file per mail), its path logged at startup"
        ),
        Setting(
            "dkim-selector",
            "PETSPOT_DKIM_SELECTOR",
            \.dkimSelector,
            SettingKind<String>.text("name", trimmed: true).optional,
            help: "DKIM selector of the alert mails' signature (with --dkim-key).",
            about: "none: mails are not signed here (a relay that signs is assumed, docs/alerts.md); with `--dkim-key`, every mail is signed"
        ),
        Setting(
            "dkim-key",
            "PETSPOT_DKIM_KEY",
            \.dkimKeyFile,
            SettingKind<String>.text("file", trimmed: true).optional,
            help: "PEM file of the DKIM private key, RSA or Ed25519 (with --dkim-selector).",
            about: "none; a PEM file (PKCS#8 or PKCS#1 RSA, PKCS#8 Ed25519) read at startup"
        ),
    ]
}
