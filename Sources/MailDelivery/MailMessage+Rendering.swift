import Crypto
import Foundation

extension MailMessage {
    /// RFC 5322 bytes: CRLF line ends, lines <= 998 octets (fold long headers), MIME-Version 1.0,
    /// multipart/alternative with a text/plain and a text/html part, UTF-8, each body quoted-printable,
    /// ASCII-only headers, Subject and display names as RFC 2047 encoded words when non-ASCII, Date in RFC 5322 form
    /// (UTC +0000), Message-ID <...>, Auto-Submitted: auto-generated (RFC 3834) always. A random-free, deterministic
    /// boundary (derived from messageID) so the same message renders to the same bytes. With a signer, a
    /// DKIM-Signature header first.
    public func rendered(signer: DKIMSigner? = nil) throws -> [UInt8] {
        let boundary = mimeBoundary
        let headers = try headerFields(boundary: boundary)
        let body = bodyBytes(boundary: boundary)
        var output: [UInt8] = []
        output.reserveCapacity(body.count + 2048)
        if let signer {
            let signature = try signer.signatureField(headers: headers, body: body, date: date)
            output += Array("\(signature.name): \(signature.value)\r\n".utf8)
        }
        for field in headers {
            output += Array("\(field.name): \(field.value)\r\n".utf8)
        }
        output += [13, 10]
        output += body
        return output
    }

    /// The boundary: `=_` cannot occur in quoted-printable text (RFC 2045 §6.7), so no body line can match it; the
    /// rest is a hash of the message id, so rendering is repeatable.
    var mimeBoundary: String {
        let digest = SHA256.hash(data: Array(messageID.utf8))
        return "=_petspot_"
            + digest.prefix(12).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }

    /// The header fields in order, each value already folded (CRLF SP inside, no final CRLF).
    func headerFields(boundary: String) throws(MailDeliveryError) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("From", try Self.mailbox(from, header: "From")),
            ("To", try Self.mailbox(to, header: "To")),
            ("Subject", try Self.unstructured(subject, header: "Subject")),
            ("Date", MIMEEncoding.rfc5322Date(date)),
            ("Message-ID", "<\(try validatedMessageID())>"),
            // Why: RFC 3834 §5; vacation responders and ticket systems do not answer an alert.
            ("Auto-Submitted", "auto-generated"),
        ]
        let reserved = Set(["from", "to", "subject", "date", "message-id", "auto-submitted", "mime-version", "content-type"])
        for header in extraHeaders {
            let nameBytes = Array(header.name.utf8)
            guard !nameBytes.isEmpty, nameBytes.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else {
                throw .badMessage("bad header name \(header.name.debugDescription)")
            }
            guard !reserved.contains(header.name.lowercased()) else {
                throw .badMessage("header \(header.name) is written by the renderer")
            }
            guard header.value.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) else {
                throw .badMessage("header \(header.name) must be printable ASCII")
            }
            let tokens = header.value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            fields.append((header.name, try MIMEEncoding.folded(name: header.name, tokens: tokens)))
        }
        fields.append(("MIME-Version", "1.0"))
        fields.append(("Content-Type", "multipart/alternative;\r\n boundary=\"\(boundary)\""))
        return fields
    }

    /// Both parts inside their boundaries; the CRLF before each delimiter belongs to the delimiter (RFC 2046 §5.1.1).
    func bodyBytes(boundary: String) -> [UInt8] {
        var body: [UInt8] = []
        for (type, content) in [("text/plain", text), ("text/html", html)] {
            body += Array("--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\n".utf8)
            body += Array("Content-Transfer-Encoding: quoted-printable\r\n\r\n".utf8)
            body += MIMEEncoding.quotedPrintable(content)
            body += [13, 10]
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    /// The message id checked: ASCII, one `@`, nothing that would end the `<…>`.
    private func validatedMessageID() throws(MailDeliveryError) -> String {
        let bytes = Array(messageID.utf8)
        guard bytes.count <= 900, bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1,
            bytes.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") })
        else { throw .badMessage("message id must be ASCII id-left@id-right without brackets") }
        return messageID
    }

    /// An unstructured value (the subject): as it is when plain ASCII, else RFC 2047 words; folded either way.
    private static func unstructured(_ text: String, header: String) throws(MailDeliveryError) -> String {
        let line = MIMEEncoding.singleLine(text)
        if MIMEEncoding.isPlainHeaderText(line) {
            return try MIMEEncoding.folded(name: header, tokens: line.split(separator: " ", omittingEmptySubsequences: false).map(String.init))
        }
        return try MIMEEncoding.folded(name: header, tokens: MIMEEncoding.encodedWords(line))
    }

    /// A mailbox (`name <address>`): an ASCII name as a quoted string, any other as RFC 2047 words.
    private static func mailbox(_ mailbox: MailAddress, header: String) throws(MailDeliveryError) -> String {
        let address = "<\(try mailbox.validatedAddress())>"
        guard let name = mailbox.displayName.map(MIMEEncoding.singleLine), !name.isEmpty else {
            return try MIMEEncoding.folded(name: header, tokens: [address])
        }
        if MIMEEncoding.isPlainHeaderText(name) && name.utf8.count <= 60 {
            let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return try MIMEEncoding.folded(name: header, tokens: ["\"\(quoted)\"", address])
        }
        return try MIMEEncoding.folded(name: header, tokens: MIMEEncoding.encodedWords(name) + [address])
    }
}
