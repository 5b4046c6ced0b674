import Dispatch
import Foundation
import Synchronization

/// Sends messages to an SMTP relay through libcurl (docs/mail.md): one easy handle, kept and reused between
/// messages so its connection is too, driven from one serial queue because `curl_easy_perform` blocks.
public final class SMTPTransport: MailTransport {
    /// `SMTP <url with the password hidden> (TLS <policy>)`.
    public let description: String
    /// Why a queue of its own: a blocking perform must never hold one of the concurrency pool's few threads.
    private let queue = DispatchQueue(label: "petspot.mail.smtp")
    /// Why a mutex as well: it makes the handle's single ownership visible to the compiler; only `queue` locks it.
    private let easy: Mutex<CurlEasy>

    /// A transport for `settings`; throws when libcurl cannot make or set up its handle.
    public init(settings: SMTPSettings) throws {
        easy = Mutex(try CurlEasy(settings: settings))
        description = "SMTP \(settings.redactedURL) (TLS \(settings.tls.rawValue), timeout \(settings.timeoutSeconds) s)"
    }

    /// Sends one rendered message to one recipient; never throws: the outcome says what happened.
    public func deliver(_ message: [UInt8], from: String, to: String) async -> DeliveryOutcome {
        // Why: the addresses become SMTP commands; a CR, LF or `>` in one would add a command of its own.
        do {
            _ = try MailAddress(from).validatedAddress()
            _ = try MailAddress(to).validatedAddress()
        } catch {
            return .permanent(error.description)
        }
        return await withCheckedContinuation { continuation in
            queue.async {
                let exchange = self.easy.withLock { $0.send(message, from: from, to: to) }
                continuation.resume(returning: exchange.outcome)
            }
        }
    }
}

/// What one SMTP exchange came to: libcurl's error if any, and the server's last reply.
struct SMTPExchange {
    /// The failing libcurl call, nil when the message was accepted.
    var error: MailDeliveryError?
    /// The last SMTP reply code (CURLINFO_RESPONSE_CODE), 0 when none.
    var replyCode: Int
    /// The reply lines the server sent in this exchange, oldest first (`550 5.1.1 no such user`).
    var replyLines: [String]

    /// The classification of docs/mail.md "Outcomes": 5xx permanent, 4xx and every transport failure temporary.
    var outcome: DeliveryOutcome {
        guard let error else { return .sent }
        var curlCode: Int32 = -1
        var text = error.description
        if case .curl(_, let code, let message) = error {
            curlCode = code
            text = message
        }
        // The line that carried the last reply code; libcurl may have read others after it (a QUIT's 221).
        let reply = replyLines.last { $0.hasPrefix("\(replyCode) ") || $0.hasPrefix("\(replyCode)-") } ?? "\(replyCode) \(text)"
        // Why a refused login is temporary although its reply is 535: it is our credentials, not the recipient.
        let loginDenied: Int32 = 67
        if curlCode == loginDenied { return .temporary("login denied: \(reply)") }
        switch replyCode {
        case 500..<600: return .permanent(reply)
        case 400..<500: return .temporary(reply)
        default: return .temporary(text)
        }
    }
}
