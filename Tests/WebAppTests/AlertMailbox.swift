import Foundation
import Testing

/// The mails an app wrote into its Maildir (`--mail-dir`), read back as a person's mail program would
/// show them: headers unfolded, the text and HTML parts decoded from quoted-printable or base64.
struct AlertMailbox {
    let folder: URL

    /// A new empty folder under the temporary directory.
    static func make() -> AlertMailbox {
        AlertMailbox(folder: FileManager.default.temporaryDirectory.appendingPathComponent("petspot-mail-\(UUID().uuidString.prefix(8))"))
    }

    /// Every mail in `new/`, oldest first.
    func mails() throws -> [ReceivedMail] {
        let new = folder.appendingPathComponent("new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
        // In the order they were written (a Maildir name is unique, not sortable).
        let written = names.map { name -> (Date, String) in
            let date = (try? FileManager.default.attributesOfItem(atPath: new.appendingPathComponent(name).path)[.modificationDate]) as? Date
            return (date ?? .distantPast, name)
        }
        return try written.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map {
            try ReceivedMail(bytes: Array(Data(contentsOf: new.appendingPathComponent($0.1))))
        }
    }
}

/// One mail, parsed.
struct ReceivedMail {
    let raw: [UInt8]
    /// Header fields, unfolded, names lowercased (the first of each name).
    let headers: [String: String]
    let text: String
    let html: String

    init(bytes: [UInt8]) throws {
        raw = bytes
        let message = String(decoding: bytes, as: UTF8.self)
        let (head, body) = try ReceivedMail.split(message)
        headers = ReceivedMail.fields(head)
        let type = headers["content-type"] ?? ""
        let boundary = try #require(type.components(separatedBy: "boundary=").last?.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
        var text = ""
        var html = ""
        for part in body.components(separatedBy: "--" + boundary).dropFirst() where !part.hasPrefix("--") {
            let (partHead, partBody) = try ReceivedMail.split(String(part.drop(while: { $0 == "\r" || $0 == "\n" })))
            let fields = ReceivedMail.fields(partHead)
            let decoded = ReceivedMail.decode(partBody, encoding: fields["content-transfer-encoding"] ?? "7bit")
            if fields["content-type"]?.hasPrefix("text/html") == true { html = decoded } else { text = decoded }
        }
        self.text = text
        self.html = html
    }

    /// The header `name` (any case).
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The `href` of the element with `data-testid="testID"` in the HTML part.
    func link(_ testID: String) -> String? {
        guard let tag = html.components(separatedBy: "<a ").first(where: { $0.contains("data-testid=\"\(testID)\"") }),
            let start = tag.range(of: "href=\"")
        else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]).replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// The path and query of an absolute link on the public base URL.
    static func pathAndQuery(_ link: String) -> String {
        guard let url = URL(string: link) else { return link }
        return url.path + (url.query.map { "?" + $0 } ?? "")
    }

    private static func split(_ message: String) throws -> (String, String) {
        let range = try #require(message.range(of: "\r\n\r\n"))
        return (String(message[..<range.lowerBound]), String(message[range.upperBound...]))
    }

    private static func fields(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if fields[name] == nil { fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    private static func decode(_ body: String, encoding: String) -> String {
        switch encoding.lowercased() {
        case "base64":
            return Data(base64Encoded: body.replacingOccurrences(of: "\r\n", with: "")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        case "quoted-printable":
            var bytes: [UInt8] = []
            let input = Array(body.utf8)
            var index = 0
            while index < input.count {
                let byte = input[index]
                if byte == UInt8(ascii: "="), index + 2 < input.count || index + 1 < input.count {
                    if index + 2 < input.count, input[index + 1] == 13, input[index + 2] == 10 {
                        index += 3
                        continue
                    }
                    if index + 2 < input.count, let value = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                        bytes.append(value)
                        index += 3
                        continue
                    }
                }
                bytes.append(byte)
                index += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        default:
            return body
        }
    }
}
