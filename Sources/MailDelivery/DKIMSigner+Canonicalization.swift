import Crypto
import Foundation

extension DKIMSigner {
    /// The `DKIM-Signature` field for a message with these header fields (values folded as rendered) and body bytes;
    /// `t=` is the message's date, so a message signs to the same field every time.
    func signatureField(headers: [(name: String, value: String)], body: [UInt8], date: Date) throws -> (name: String, value: String) {
        let bodyHash = Data(SHA256.hash(data: Self.relaxedBody(body))).base64EncodedString()
        let present = Set(headers.map { $0.name.lowercased() })
        let names = Self.signedHeaders.filter(present.contains)
        let timestamp = Int(date.timeIntervalSince1970)
        var value = "v=1; a=\(algorithm); c=relaxed/relaxed;\r\n d=\(domain); s=\(selector); t=\(timestamp);\r\n"
        value += " h=" + Self.foldedList(names) + ";\r\n bh=\(bodyHash);\r\n b="
        var signed: [UInt8] = []
        for name in names {
            // Why the last one: a verifier takes the bottom-most instance of each name (RFC 6376 §5.4.2).
            if let field = headers.last(where: { $0.name.lowercased() == name }) {
                signed += Self.relaxedHeader(name: field.name, value: field.value) + [13, 10]
            }
        }
        // The signature field itself, with an empty b= and no final CRLF (RFC 6376 §3.7).
        signed += Self.relaxedHeader(name: "DKIM-Signature", value: value)
        let signature = try sign(signed).base64EncodedString()
        var chunks: [Substring] = []
        var rest = Substring(signature)
        while !rest.isEmpty {
            chunks.append(rest.prefix(72))
            rest = rest.dropFirst(72)
        }
        // Folding inside b= is allowed: a verifier drops the whole value, its whitespace included.
        return ("DKIM-Signature", value + chunks.joined(separator: "\r\n "))
    }

    /// Header names joined by `:`, folded after a colon so no line passes 78 columns.
    private static func foldedList(_ names: [String]) -> String {
        var output = ""
        var column = 3
        for (index, name) in names.enumerated() {
            if index > 0 {
                output += ":"
                column += 1
                if column + name.count > 76 {
                    output += "\r\n "
                    column = 1
                }
            }
            output += name
            column += name.count
        }
        return output
    }

    /// RFC 6376 §3.4.2 relaxed header canonicalization: lower-case name, unfolded value, whitespace runs as one space,
    /// none at either end, `name:value`.
    static func relaxedHeader(name: String, value: String) -> [UInt8] {
        var output = Array(name.lowercased().utf8) + [UInt8(ascii: ":")]
        var pendingSpace = false
        for byte in value.utf8 where byte != 13 && byte != 10 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = true
                continue
            }
            if pendingSpace && output.count > name.utf8.count + 1 { output.append(UInt8(ascii: " ")) }
            pendingSpace = false
            output.append(byte)
        }
        return output
    }

    /// RFC 6376 §3.4.4 relaxed body canonicalization: whitespace runs as one space, none at a line's end, no empty
    /// lines at the end, and a final CRLF unless the body is empty.
    static func relaxedBody(_ body: [UInt8]) -> [UInt8] {
        var lines: [[UInt8]] = []
        var start = body.startIndex
        var index = body.startIndex
        while index < body.endIndex {
            if body[index] == 13, index + 1 < body.endIndex, body[index + 1] == 10 {
                lines.append(relaxedLine(body[start..<index]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        if start < body.endIndex { lines.append(relaxedLine(body[start..<body.endIndex])) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.flatMap { $0 + [13, 10] }
    }

    /// One body line with whitespace runs reduced to one space and none at its end.
    private static func relaxedLine(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        var pendingSpace = false
        for byte in line {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = true
                continue
            }
            if pendingSpace { output.append(UInt8(ascii: " ")) }
            pendingSpace = false
            output.append(byte)
        }
        return output
    }
}
