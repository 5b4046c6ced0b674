import Foundation
import MailDelivery
import Testing

/// What Python's email package (policy.strict) decodes from a rendered message.
private struct Parsed: Decodable {
    struct Mailbox: Decodable {
        let displayName: String
        let addrSpec: String
    }
    struct Part: Decodable {
        let contentType: String
        let charset: String?
        let transferEncoding: String?
        let content: String
    }
    let headers: [[String]]
    let subject: String
    let from: Mailbox
    let to: Mailbox
    let date: String
    let messageId: String
    let contentType: String
    let parts: [String]
    let text: Part
    let html: Part
    let defects: [String]
}

/// Renders `message`, writes it to a file and parses it with scripts/mail/check-message.py.
private func parse(_ bytes: [UInt8]) throws -> Parsed {
    let folder = try MailTestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("message.eml")
    try Data(bytes).write(to: file)
    let json = try MailTestSupport.runScript("check-message.py", [file.path])
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(Parsed.self, from: Data(json.utf8))
}

/// The message's lines split at CRLF; nil when a CR or LF stands alone or the last line has no CRLF.
private func crlfLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while index < bytes.count {
        switch bytes[index] {
        case 13:
            guard index + 1 < bytes.count, bytes[index + 1] == 10 else { return nil }
            lines.append(bytes[start..<index])
            index += 2
            start = index
        case 10: return nil
        default: index += 1
        }
    }
    return start == bytes.count ? lines : nil
}

/// The header block's raw text (up to the empty line), unfolded per field.
private func rawHeaders(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n")[0]
    return head.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
}

@Suite struct MailMessageRenderingTests {
    @Test func subject_with_polish_letters_is_rfc2047_encoded() throws {
        // Arrange
        let subject = "Zaginął pies — Łódź, źrebię żółć"
        // Act
        let bytes = try sampleMessage(subject: subject).rendered()
        let parsed = try parse(bytes)
        // Assert
        #expect(parsed.subject == subject)
        let raw = try #require(rawHeaders(bytes).first { $0.hasPrefix("Subject: ") })
        let words = raw.dropFirst("Subject: ".count).split(separator: " ")
        #expect(words.count > 1)
        for word in words {
            #expect(word.count <= 75)
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            // Each word decodes to whole UTF-8 sequences on its own: no character was split between two words.
            let base64 = String(word.dropFirst(10).dropLast(2))
            let decoded = try #require(Data(base64Encoded: base64))
            #expect(String(validating: decoded, as: UTF8.self) != nil, "word \(word) splits a UTF-8 sequence")
        }
    }

    @Test func long_subject_in_many_words_decodes_back_exactly() throws {
        let subject = String(repeating: "Żółty kot z Łodzi szuka domu; ", count: 8)
        let parsed = try parse(try sampleMessage(subject: subject).rendered())
        #expect(parsed.subject == subject)
    }

    @Test func ascii_subject_stays_readable() throws {
        let bytes = try sampleMessage(subject: "Lost dog near the park").rendered()
        #expect(rawHeaders(bytes).contains("Subject: Lost dog near the park"))
        #expect(try parse(bytes).subject == "Lost dog near the park")
    }

    @Test func subject_with_a_line_break_cannot_add_a_header() throws {
        let bytes = try sampleMessage(subject: "Hello\r\nBcc: victim@example.org").rendered()
        let parsed = try parse(bytes)
        #expect(!parsed.headers.contains { $0[0].lowercased() == "bcc" })
        #expect(parsed.subject == "Hello  Bcc: victim@example.org")
    }

    @Test func both_parts_decode_back_exactly_including_long_and_dot_and_from_lines() throws {
        // Arrange: a line past 998 octets, lines starting with "." and "From ", a trailing space, "=" signs.
        let longLine = String(repeating: "żółć=ą ", count: 300)
        let text = "Cześć Ola,\n.\n.. kropki\nFrom the shelter: pies.\nspacja na końcu \n\(longLine)\nkoniec\n"
        let html = "<p>Cześć</p>\n.\n<p>From here</p>\n<p>\(longLine)</p>\n"
        // Act
        let bytes = try sampleMessage(text: text, html: html).rendered()
        let parsed = try parse(bytes)
        // Assert
        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.parts == ["text/plain", "text/html"])
        #expect(parsed.text.content == text)
        #expect(parsed.html.content == html)
        #expect(parsed.text.charset == "utf-8" && parsed.html.charset == "utf-8")
        #expect(parsed.text.transferEncoding == "quoted-printable")
        #expect(parsed.defects.isEmpty)
    }

    @Test func every_line_is_crlf_terminated_ascii_and_at_most_998_octets() throws {
        let longLine = String(repeating: "x", count: 2500)
        let bytes = try sampleMessage(text: longLine + "\n", html: "<p>\(longLine)</p>").rendered()
        let lines = try #require(crlfLines(bytes), "a bare CR or LF, or no final CRLF")
        #expect(lines.allSatisfy { $0.count <= 998 })
        #expect(bytes.allSatisfy { $0 < 128 })
        // No line reads as SMTP's end of data or as an mbox separator.
        #expect(!lines.contains { $0.first == UInt8(ascii: ".") })
        #expect(!lines.contains { $0.starts(with: Array("From ".utf8)) })
    }

    @Test func required_headers_are_present() throws {
        let bytes = try sampleMessage().rendered()
        let parsed = try parse(bytes)
        let names = parsed.headers.map { $0[0] }
        for name in ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type", "Auto-Submitted"] {
            #expect(names.contains(name), "missing \(name)")
        }
        let value = { (name: String) in parsed.headers.first { $0[0] == name }?[1] }
        #expect(value("Auto-Submitted") == "auto-generated")
        #expect(value("MIME-Version") == "1.0")
        #expect(value("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        #expect(value("List-Unsubscribe")?.hasPrefix("<https://petspot.example/alerts/unsubscribe?token=") == true)
        #expect(parsed.messageId == "<alert.3f2a9c@petspot.example>")
        #expect(parsed.date == "2026-11-30T00:53:20+00:00")
        #expect(rawHeaders(bytes).contains("Date: Mon, 30 Nov 2026 00:53:20 +0000"))
        #expect(parsed.from.displayName == "PetSpot — alerty" && parsed.from.addrSpec == "alerts@petspot.example")
        #expect(parsed.to.displayName == "Ola Żółkiewska" && parsed.to.addrSpec == "ola@example.org")
    }

    @Test func date_is_written_in_utc_with_two_digit_fields() throws {
        var message = sampleMessage()
        message.date = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(rawHeaders(try message.rendered()).contains("Date: Sun, 09 Sep 2001 01:46:40 +0000"))
    }

    @Test func same_message_renders_to_the_same_bytes() throws {
        let first = try sampleMessage().rendered()
        let second = try sampleMessage().rendered()
        let other = try sampleMessage(id: "alert.other@petspot.example").rendered()
        #expect(first == second)
        #expect(first != other)
    }

    @Test func address_with_angle_brackets_is_refused() throws {
        var message = sampleMessage()
        message.to = MailAddress("ola@example.org>, evil@example.org")
        #expect(throws: MailDeliveryError.self) { try message.rendered() }
    }

    @Test func extra_header_with_a_line_break_is_refused() throws {
        var message = sampleMessage()
        message.extraHeaders = [("List-Id", "a\r\nBcc: evil@example.org")]
        #expect(throws: MailDeliveryError.self) { try message.rendered() }
    }
}
