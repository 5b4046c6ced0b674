internal import CCurlShim
import Foundation

/// One libcurl easy handle set up for a relay, and the SMTP exchange of one message on it. Not thread-safe:
/// `SMTPTransport` uses it from one serial queue at a time. The handle keeps its connection open between messages.
final class CurlEasy {
    /// Owned: made by `petspot_curl_easy_init` in `init`, released by `petspot_curl_easy_cleanup` in `deinit`.
    private let handle: OpaquePointer
    /// The server's reply lines of the current exchange; its address is given to libcurl as DEBUGDATA and stays
    /// valid because this object owns it for the handle's whole life.
    private let replies = ReplyLines()

    /// A handle for `settings`: URL, credentials, TLS policy, timeouts; the per-message options come in `send`.
    init(settings: SMTPSettings) throws(MailDeliveryError) {
        try check(petspot_curl_global_init_once(), "petspot_curl_global_init_once")
        guard let handle = petspot_curl_easy_init() else {
            throw .curl(function: "petspot_curl_easy_init", code: -1, message: "libcurl gave no handle")
        }
        self.handle = handle
        try setString(PETSPOT_CURLOPT_URL, settings.connectURL)
        if let username = settings.username { try setString(PETSPOT_CURLOPT_USERNAME, username) }
        if let password = settings.password { try setString(PETSPOT_CURLOPT_PASSWORD, password) }
        if let caFile = settings.caFile { try setString(PETSPOT_CURLOPT_CAINFO, caFile) }
        let useSSL =
            switch settings.tls {
            case .required: PETSPOT_CURLUSESSL_ALL
            case .opportunistic: PETSPOT_CURLUSESSL_TRY
            case .none: PETSPOT_CURLUSESSL_NONE
            }
        try setLong(PETSPOT_CURLOPT_USE_SSL, settings.implicitTLS ? PETSPOT_CURLUSESSL_ALL : useSSL)
        try setLong(PETSPOT_CURLOPT_TIMEOUT, settings.timeoutSeconds)
        try setLong(PETSPOT_CURLOPT_CONNECTTIMEOUT, settings.timeoutSeconds)
        // Why: libcurl's timeouts otherwise use SIGALRM, which is not safe with threads (docs/mail.md "libcurl").
        try setLong(PETSPOT_CURLOPT_NOSIGNAL, 1)
        try setLong(PETSPOT_CURLOPT_UPLOAD, 1)
        let userdata = Unmanaged.passUnretained(replies).toOpaque()
        try check(petspot_curl_setopt_replies(handle, replyCallback, userdata), "petspot_curl_setopt_replies")
    }

    deinit {
        // Also sends QUIT on an open connection.
        petspot_curl_easy_cleanup(handle)
    }

    /// Sends `message` from `from` to `to` on this handle (reusing its connection when it is still open) and says
    /// what the server answered; blocks until done or timed out.
    func send(_ message: [UInt8], from: String, to: String) -> SMTPExchange {
        replies.lines.removeAll()
        let source = UploadSource(bytes: message)
        var list: OpaquePointer?
        do throws(MailDeliveryError) {
            try setString(PETSPOT_CURLOPT_MAIL_FROM, "<\(from)>")
            guard let appended = petspot_curl_slist_append(nil, "<\(to)>") else {
                throw MailDeliveryError.curl(function: "petspot_curl_slist_append", code: -1, message: "out of memory")
            }
            list = appended
            try check(petspot_curl_setopt_slist(handle, Int32(PETSPOT_CURLOPT_MAIL_RCPT), appended), "petspot_curl_setopt_slist")
            try check(petspot_curl_setopt_off(handle, Int32(PETSPOT_CURLOPT_INFILESIZE_LARGE), Int64(message.count)), "petspot_curl_setopt_off")
            // `source` is retained by this function until perform returns (withExtendedLifetime below).
            let userdata = Unmanaged.passUnretained(source).toOpaque()
            try check(petspot_curl_setopt_read(handle, uploadCallback, userdata), "petspot_curl_setopt_read")
            try withExtendedLifetime(source) { () throws(MailDeliveryError) in
                try check(petspot_curl_perform(handle), "petspot_curl_perform")
            }
            release(list)
            return SMTPExchange(error: nil, replyCode: responseCode(), replyLines: replies.lines)
        } catch {
            release(list)
            return SMTPExchange(error: error, replyCode: responseCode(), replyLines: replies.lines)
        }
    }

    /// Unsets MAIL_RCPT, then frees the list it pointed at, so the handle never keeps a freed pointer.
    private func release(_ list: OpaquePointer?) {
        guard let list else { return }
        _ = petspot_curl_setopt_slist(handle, Int32(PETSPOT_CURLOPT_MAIL_RCPT), nil)
        petspot_curl_slist_free(list)
    }

    /// The last SMTP reply code of the exchange, 0 when none was read.
    private func responseCode() -> Int {
        var code = 0
        return (try? check(petspot_curl_response_code(handle, &code), "petspot_curl_response_code")) == nil ? 0 : code
    }

    private func setLong(_ option: Int, _ value: Int) throws(MailDeliveryError) {
        try check(petspot_curl_setopt_long(handle, Int32(option), value), "petspot_curl_setopt_long")
    }

    private func setString(_ option: Int, _ value: String) throws(MailDeliveryError) {
        try check(petspot_curl_setopt_string(handle, Int32(option), value), "petspot_curl_setopt_string")
    }
}

/// Every libcurl result code passes here: anything but CURLE_OK throws, naming the shim function and libcurl's text.
func check(_ code: Int32, _ function: String) throws(MailDeliveryError) {
    guard code != Int32(PETSPOT_CURLE_OK) else { return }
    throw .curl(function: function, code: code, message: curlErrorText(code))
}

/// libcurl's English text for a result code (`curl_easy_strerror`, static strings).
func curlErrorText(_ code: Int32) -> String {
    guard let text = petspot_curl_strerror(code) else { return "libcurl error \(code)" }
    return String(cString: text)
}

/// The bytes of one message and how far libcurl has read them.
private final class UploadSource {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// The server's reply lines as libcurl hands them over.
private final class ReplyLines {
    var lines: [String] = []
}

/// CURLOPT_READFUNCTION: copies the next bytes of the `UploadSource` at `userdata` into libcurl's buffer.
private let uploadCallback: petspot_curl_read_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let source = Unmanaged<UploadSource>.fromOpaque(userdata).takeUnretainedValue()
    let length = min(size * count, source.bytes.count - source.offset)
    source.bytes.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress, length > 0 else { return }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: length)
    }
    source.offset += length
    return length
}

/// The reply callback (through CURLOPT_DEBUGFUNCTION): keeps each reply line (without its CRLF) in the `ReplyLines` at `userdata`.
private let replyCallback: petspot_curl_reply_callback = { buffer, size, count, userdata in
    let length = size * count
    guard let buffer, let userdata else { return length }
    let replies = Unmanaged<ReplyLines>.fromOpaque(userdata).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
    let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if !line.isEmpty { replies.lines.append(line) }
    return length
}
