// The parser's low-level readers: text up to the next tag, tag names, standalone-line detection
// and error positions, all on UTF-8 bytes.

/// Bytes the parser looks for.
enum TemplateByte {
    /// "\n", the only line terminator accepted.
    static let newline: UInt8 = 0x0A
    /// " ", skipped before a standalone tag.
    static let space: UInt8 = 0x20
    /// "\t", skipped before a standalone tag.
    static let tab: UInt8 = 0x09
    /// "{", tag opener.
    static let openBrace: UInt8 = 0x7B
    /// "}", tag closer.
    static let closeBrace: UInt8 = 0x7D
}

private let newline = TemplateByte.newline
private let space = TemplateByte.space
private let tab = TemplateByte.tab
private let openBrace = TemplateByte.openBrace
private let closeBrace = TemplateByte.closeBrace

extension TemplateParser {
    /// Why `readText` stopped.
    enum TextStop { case newline, tag, end }

    /// Reads literal text up to a line end (not consumed), a "{{" (consumed) or the end of the file.
    mutating func readText() throws -> ([UInt8], TextStop) {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == newline { return (Array(bytes[start..<position]), .newline) }
            if byte == openBrace {
                // swift-mustache fails on a "{" that is the file's last character.
                guard position + 1 < bytes.count else { throw error(at: position, "unclosed tag: \"{\" at the end of the file") }
                if bytes[position + 1] == openBrace {
                    position += 2
                    return (Array(bytes[start..<(position - 2)]), .tag)
                }
            }
            position += 1
        }
        return (Array(bytes[start..<position]), .end)
    }

    /// A standalone tag is alone on its line: the rest of the line (and its "\n") is consumed.
    mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if position == bytes.count { return true }
        var probe = position
        while probe < bytes.count, bytes[probe] == space || bytes[probe] == tab { probe += 1 }
        guard probe < bytes.count, bytes[probe] == newline else { return false }
        position = probe + 1
        return true
    }

    /// Reads `name}}` (with optional surrounding whitespace) of a variable or section tag.
    mutating func readName(tagStart: Int) throws -> String {
        skip(while: Self.isTagWhitespace)
        let start = position
        skip(while: { Self.isNameByte($0) || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") })
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        if name.contains("(") || name.contains(")") {
            throw error(at: tagStart, "transforms such as {{\(name)}} are not supported")
        }
        try expectTagEnd(tagStart: tagStart, name: name)
        return name
    }

    /// Reads `name}}` of a partial tag, where "/" is allowed.
    mutating func readPartialName(tagStart: Int) throws -> String {
        if position < bytes.count, bytes[position] == UInt8(ascii: "*") {
            throw error(at: tagStart, "dynamic partials {{>*name}} are not supported")
        }
        skip(while: Self.isTagWhitespace)
        let start = position
        skip(while: { Self.isNameByte($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") })
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        if name.first == "*" {
            throw error(at: tagStart, "dynamic partials {{<*name}} are not supported")
        }
        try expectTagEnd(tagStart: tagStart, name: name)
        return name
    }

    /// Skips whitespace and consumes the closing `}}`, or throws an unclosed-tag error.
    mutating func expectTagEnd(tagStart: Int, name: String) throws {
        skip(while: Self.isTagWhitespace)
        guard position + 1 < bytes.count, bytes[position] == closeBrace, bytes[position + 1] == closeBrace else {
            throw error(at: tagStart, "unclosed tag {{\(name)…: expected }} after a name of letters, digits and ._-?*")
        }
        position += 2
    }

    /// Advances past bytes matching `predicate`.
    mutating func skip(while predicate: (UInt8) -> Bool) {
        while position < bytes.count, predicate(bytes[position]) { position += 1 }
    }

    /// Offset of the next `first second` byte pair from `start`, or nil.
    func find(_ first: UInt8, _ second: UInt8, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == first && bytes[index + 1] == second { return index }
            index += 1
        }
        return nil
    }

    /// Whitespace swift-mustache skips inside tags; other line ends are refused up front and
    /// non-ASCII whitespace fails as an unclosed tag.
    static func isTagWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == newline
    }

    /// Letters, digits and `.-_?*`, swift-mustache's name characters (brackets are transforms).
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "*"):
            return true
        default:
            return false
        }
    }

    /// 1-based line and byte column of `offset`, for error messages.
    func lineAndColumnNumbers(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == newline {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// "line:column" of `offset`.
    func lineAndColumn(_ offset: Int) -> String {
        let (line, column) = lineAndColumnNumbers(offset)
        return "\(line):\(column)"
    }

    /// A LoadError for this file at `offset`.
    func error(at offset: Int, _ message: String) -> CompiledTemplates.LoadError {
        let (line, column) = lineAndColumnNumbers(offset)
        return CompiledTemplates.LoadError(file: file, line: line, column: column, message: message)
    }
}
