import CompiledTemplates
import FastBytes
import Foundation
import MicroHTTP

/// XML 1.0 character data and attribute values (RFC 4287 documents are XML): the HTML escapes
/// (`& < > " '`, all valid in XML), after dropping the characters XML cannot carry at all (C0
/// controls other than tab, LF and CR, lone surrogates cannot occur in a Swift String, U+FFFE/FFFF),
/// so a hostile upstream row cannot make the feed unreadable.
enum XMLText {
    /// Appends `text` to `output`, escaped.
    static func escape(_ text: String, into output: inout [UInt8]) {
        text.withUTF8View { escape(bytes: $0, into: &output) }
    }

    /// Appends `bytes` (UTF-8 text), escaped. Bytes first: a text without control bytes and
    /// without 0xEF (the lead byte of U+FFFE and U+FFFF) holds only allowed characters, and reading
    /// bytes is several times cheaper than reading scalars (callgrind, the feed's head and entries).
    static func escape(bytes: ByteView, into output: inout [UInt8]) {
        for byte in bytes where byte < 0x20 ? !(byte == 0x9 || byte == 0xA || byte == 0xD) : byte == 0xEF {
            let text = String(decoding: bytes, as: UTF8.self)
            HTMLText.escape(String(String.UnicodeScalarView(text.unicodeScalars.filter(isAllowed))), into: &output)
            return
        }
        HTMLText.escape(bytes, into: &output)
    }

    /// Appends `<name>text</name>` and a line break.
    static func element(_ name: String, _ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "<"))
        output += name.utf8
        output.append(UInt8(ascii: ">"))
        escape(text, into: &output)
        output += "</".utf8
        output += name.utf8
        output += ">\n".utf8
    }

    /// Appends `<link rel="…" [type="…"] href="…"/>` and a line break.
    static func link(rel: String, type: String?, href: String, into output: inout [UInt8]) {
        output += "<link rel=\"".utf8
        output += rel.utf8
        output.append(UInt8(ascii: "\""))
        if let type {
            output += " type=\"".utf8
            output += type.utf8
            output.append(UInt8(ascii: "\""))
        }
        output += " href=\"".utf8
        escape(href, into: &output)
        output += "\"/>\n".utf8
    }

    /// XML 1.0's `Char` production.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension Date {
    /// Whole seconds since 1970 (fractions dropped, as `Last-Modified` and the feed's dates show them).
    var wholeSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

/// RFC 3339 date-times as Atom writes them (`2025-11-12T10:00:00Z`).
enum AtomDate {
    /// `seconds` since 1970 in UTC.
    static func string(_ seconds: Int64) -> String {
        let time = UTCTime(seconds)
        guard (0...9999).contains(time.year) else { return Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601) }
        // In integers, as Foundation's ISO 8601 style writes it: that style cost more per feed
        // than its head's other parts together (callgrind).
        return DigitWriter.string(capacity: 20) { writer in
            writer.put(Int(time.year), digits: 4)
            writer.put("-")
            writer.put(time.month, digits: 2)
            writer.put("-")
            writer.put(time.day, digits: 2)
            writer.put("T")
            writer.put(time.hour, digits: 2)
            writer.put(":")
            writer.put(time.minute, digits: 2)
            writer.put(":")
            writer.put(time.second, digits: 2)
            writer.put("Z")
        }
    }
}
