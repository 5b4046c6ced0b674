/// What became of one message to one recipient.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The server took the message (2xx after DATA), or it is on disk.
    case sent
    /// Try again later: a 4xx reply, a timeout, a refused connection, a TLS failure, a full disk; the text says which.
    case temporary(String)
    /// The server refused for good (a 5xx reply, e.g. `550 5.1.1 no such user`): do not send to this address again.
    case permanent(String)
}

/// Where rendered messages go: an SMTP relay (`SMTPTransport`) or a folder (`MaildirTransport`).
public protocol MailTransport: Sendable {
    /// Sends one rendered message to one recipient; never throws: the outcome says what happened.
    func deliver(_ message: [UInt8], from: String, to: String) async -> DeliveryOutcome
    /// For the startup log line; never contains a password.
    var description: String { get }
}
