import Foundation

/// The encodings a message needs to stay ASCII with short lines (RFC 2045 quoted-printable, RFC 2047 encoded words,
/// RFC 5322 folding and dates); pure functions over bytes and strings.
enum MIMEEncoding {
    /// The line length RFC 5322 §2.1.1 advises; folding aims at it.
    static let advisedLineLength = 78
    /// The hard limit of RFC 5322 §2.1.1, CRLF excluded.
    static let maximumLineLength = 998
    /// UTF-8 bytes per encoded word: a multiple of 3 (no base64 padding inside), short enough that
    /// `Subject: ` plus one word stays within 78 columns (12 + 56 characters per word, RFC 2047 allows 75).
    static let bytesPerEncodedWord = 42

    /// `text` as quoted-printable lines of at most 76 characters (RFC 2045 §6.7), line breaks (LF or CRLF) as CRLF,
    /// with no final CRLF added. A `.` or `F` at the start of a line is encoded too, so no line reads as SMTP's
    /// end of data or as an mbox `From ` separator on a relay that mangles them.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        var lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for index in lines.indices where lines[index].last == UInt8(ascii: "\r") {
            lines[index] = lines[index].dropLast()
        }
        for (number, line) in lines.enumerated() {
            if number > 0 { output += [13, 10] }
            var column = 0
            for (offset, byte) in zip(line.indices, line) {
                let isLast = offset == line.index(before: line.endIndex)
                var piece = quotedPrintablePiece(byte, atLineStart: column == 0, isLast: isLast)
                // Why 75 and 76: a soft line break's `=` must fit too, except after a line's last character.
                if column + piece.count > (isLast ? 76 : 75) {
                    output += [UInt8(ascii: "="), 13, 10]
                    column = 0
                    piece = quotedPrintablePiece(byte, atLineStart: true, isLast: isLast)
                }
                output += piece
                column += piece.count
            }
        }
        return output
    }

    /// One input byte as it is written in quoted-printable.
    private static func quotedPrintablePiece(_ byte: UInt8, atLineStart: Bool, isLast: Bool) -> [UInt8] {
        let whitespace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        let literal =
            (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
            || (whitespace && !isLast)
        let guarded = atLineStart && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "F"))
        if literal && !guarded { return [byte] }
        let digits = Array("0123456789ABCDEF".utf8)
        return [UInt8(ascii: "="), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
    }

    /// `text` as RFC 2047 `=?UTF-8?B?…?=` words, each at most 75 characters and never splitting a UTF-8 sequence.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > bytesPerEncodedWord {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words
    }

    /// Whether `text` can stand in a header as it is: printable ASCII and spaces only, no `=?` that a reader would
    /// take for an encoded word, and no word too long to fold.
    static func isPlainHeaderText(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 32 && $0 < 127 } && !text.contains("=?")
            && text.split(separator: " ").allSatisfy { $0.utf8.count <= advisedLineLength - 2 }
    }

    /// Text meant for one header line with control characters (CR, LF, tabs…) turned into spaces, so no value can
    /// start a header of its own.
    static func singleLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? " " : $0 }))
    }

    /// The value of a header named `name` from space-separated `tokens`, folded (CRLF SP) before a token that would
    /// pass 78 columns; throws when a line still passes 998 octets.
    static func folded(name: String, tokens: [String]) throws(MailDeliveryError) -> String {
        var value = ""
        var column = name.utf8.count + 2
        for (index, token) in tokens.enumerated() {
            let width = token.utf8.count
            if index > 0 {
                if column + 1 + width > advisedLineLength && !token.isEmpty {
                    value += "\r\n "
                    column = 1
                } else {
                    value += " "
                    column += 1
                }
            }
            value += token
            column += width
            if column > maximumLineLength { throw .badMessage("header \(name) has a word longer than 998 octets") }
        }
        return value
    }

    /// `date` in RFC 5322 §3.3 form, in UTC: `Tue, 01 Dec 2026 09:05:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String {
            let number = value ?? 0
            return number < 10 ? "0\(number)" : "\(number)"
        }
        let weekday = days[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
