import Foundation

/// How to reach the SMTP relay, parsed once at startup from `--smtp-url` (docs/mail.md "Settings").
public struct SMTPSettings: Sendable {
    /// When the connection is encrypted.
    public enum TLS: String, Sendable {
        /// STARTTLS (or smtps://) or no mail at all.
        case required
        /// STARTTLS when the server offers it, else plain text: for a relay on loopback.
        case opportunistic
        /// Never: plain text only.
        case none
    }

    /// The URL libcurl connects to, without user information: `smtp://host:587`, `smtps://host:465`.
    let connectURL: String
    /// The user name, percent-decoded, if the URL had one.
    let username: String?
    /// The password, percent-decoded, if the URL had one; never printed.
    let password: String?
    /// Whether the scheme is smtps (TLS from the first byte).
    let implicitTLS: Bool
    /// The TLS policy in force (the given one, or the default for the host).
    public let tls: TLS
    /// The limit on one message's whole exchange, and on connecting.
    public let timeoutSeconds: Int
    /// A PEM file of trusted CA certificates instead of the system's, if set.
    public let caFile: String?
    /// The URL with the password replaced by `***`, for logs: `smtp://user:***@host:587`.
    public let redactedURL: String

    /// Parses `smtp://user:pass@host:587` or `smtps://host:465`; `tls` nil means `required` unless the host is
    /// loopback (127.0.0.0/8, ::1, localhost), then `opportunistic`. A bad URL throws an error naming `--smtp-url`
    /// that never includes the password.
    public init(url: String, tls: TLS?, timeoutSeconds: Int = 30, caFile: String? = nil) throws {
        func bad(_ reason: String) -> MailDeliveryError { .badSetting(setting: "--smtp-url", reason: reason) }
        // Why not quote `url` in errors: it may hold the password; the scheme and host are safe to name.
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw bad("not a URL; expected smtp://user:password@host:587 or smtps://host:465")
        }
        guard scheme == "smtp" || scheme == "smtps" else { throw bad("scheme must be smtp or smtps, not \(scheme)") }
        guard var host = components.host, !host.isEmpty else { throw bad("no host; expected smtp://host:587") }
        guard components.query == nil, components.fragment == nil else { throw bad("a query or fragment is not allowed") }
        guard components.path.isEmpty || components.path == "/" else { throw bad("a path is not allowed") }
        if let port = components.port, !(1...65_535).contains(port) { throw bad("port out of range") }
        guard timeoutSeconds > 0 else { throw MailDeliveryError.badSetting(setting: "--smtp-timeout", reason: "must be positive") }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        let port = components.port.map { ":\($0)" } ?? ""
        let policy = tls ?? (Self.isLoopback(host) ? .opportunistic : .required)
        if scheme == "smtps" && policy == .none {
            throw MailDeliveryError.badSetting(setting: "--smtp-tls", reason: "none contradicts an smtps:// URL")
        }
        connectURL = "\(scheme)://\(host)\(port)"
        username = components.user
        password = components.password
        implicitTLS = scheme == "smtps"
        self.tls = policy
        self.timeoutSeconds = timeoutSeconds
        self.caFile = caFile
        let user = components.percentEncodedUser.map { $0 + (components.percentEncodedPassword == nil ? "" : ":***") + "@" } ?? ""
        redactedURL = "\(scheme)://\(user)\(host)\(port)"
    }

    /// Whether `host` names this machine: 127.0.0.0/8, ::1 or localhost, where an unencrypted relay is usual.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
