import Foundation

/// One alert mail as the product means it: a plain-text and an HTML version of the same text, with its
/// envelope-independent headers; `rendered(signer:)` writes its RFC 5322 bytes.
public struct MailMessage: Sendable {
    /// The author (`From:`).
    public var from: MailAddress
    /// The one recipient (`To:`).
    public var to: MailAddress
    /// The subject, in any script.
    public var subject: String
    /// The plain-text version; line breaks become CRLF (MIME's canonical form).
    public var text: String
    /// The HTML version; line breaks become CRLF.
    public var html: String
    /// The id without angle brackets (`alert.3f2a…@petspot.example`), stable per mail; also seeds the MIME boundary.
    public var messageID: String
    /// When the mail was written (`Date:`, in UTC).
    public var date: Date
    /// Further headers in order, ASCII values (List-Id, List-Unsubscribe, List-Unsubscribe-Post).
    public var extraHeaders: [(name: String, value: String)]

    /// A message from its parts.
    public init(
        from: MailAddress,
        to: MailAddress,
        subject: String,
        text: String,
        html: String,
        messageID: String,
        date: Date,
        extraHeaders: [(name: String, value: String)] = []
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
        self.extraHeaders = extraHeaders
    }
}
