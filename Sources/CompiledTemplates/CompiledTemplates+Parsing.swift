// The parser reproduces swift-mustache 2.1.1's tokenisation on UTF-8 bytes, including its
// whitespace quirks (which whitespace a standalone tag swallows, how a block's first-line indent
// is removed inside {{<parent}}), because the output must match it byte for byte. Anything it
// does not reproduce is refused with a LoadError rather than rendered differently.

private let newline = TemplateByte.newline
private let space = TemplateByte.space
private let tab = TemplateByte.tab
private let openBrace = TemplateByte.openBrace
private let closeBrace = TemplateByte.closeBrace

/// Parses one template file into nodes. Positions are byte offsets into `bytes`.
struct TemplateParser {
    /// What swift-mustache carries from a tag into the body it opens.
    struct State {
        /// The section (or inheritance partial) whose closing tag ends this body.
        var sectionName: String?
        /// Where the opening tag was, for "unclosed section" errors.
        var openedAt: Int = 0
        /// At the start of a line: leading spaces and tabs are held back, so a standalone tag can drop them.
        var newLine = true
        /// Inside `{{<parent}}…{{/parent}}` (at any depth).
        var inDefinition = false
        /// Directly inside `{{<parent}}`, where `{{$name}}` defines an override.
        var definitionTopLevel = false
        /// Indent of the first line of a block override, removed from each later line.
        var definitionIndent: Int?
    }

    /// What one body parse produced.
    private struct Body {
        var nodes: [TemplateNode] = []
    }

    /// The template's UTF-8.
    let bytes: [UInt8]
    /// Relative path, for errors.
    let file: String
    /// Current byte offset.
    var position = 0

    /// Prepares to parse `source`; refuses text swift-mustache would split into lines or tokens
    /// differently from a byte-level reading.
    init(source: String, file: String) throws {
        self.bytes = Array(source.utf8)
        self.file = file
        var offset = 0
        // swift-mustache reads Characters: "\r\n", "\r", U+000B/000C/0085/2028/2029 are line ends
        // to it, and an ASCII character fused with a combining mark or prepend character into one
        // grapheme is no longer "{", "}", " " or "\n". Neither occurs in our templates; refusing
        // them keeps the byte-level reading exact.
        for character in source {
            let scalars = character.unicodeScalars
            if character.isNewline && character != "\n" {
                throw error(at: offset, "unsupported line terminator (only \"\\n\" line ends are supported)")
            }
            if scalars.count > 1 && scalars.contains(where: \.isASCII) {
                throw error(at: offset, "an ASCII character combined with a following or preceding mark into one character")
            }
            offset += character.utf8.count
        }
    }

    /// Parses the whole file.
    mutating func parseTemplate() throws -> [TemplateNode] {
        try parseBody(State()).nodes
    }

    /// Reads the name of a `{{> name}}` or `{{< name}}` tag (the sigil at `position`) and puts the
    /// whitespace held before the tag into `body` as text: the common start of both partial tags.
    private mutating func openPartialTag(tagStart: Int, heldWhitespace: ArraySlice<UInt8>, into body: inout Body) throws -> String {
        position += 1
        skip(while: Self.isTagWhitespace)
        let name = try readPartialName(tagStart: tagStart)
        if !heldWhitespace.isEmpty {
            body.nodes.append(.text(Array(heldWhitespace)))
        }
        return name
    }

    private mutating func parseBody(_ initial: State) throws -> Body {
        var state = initial
        var body = Body()
        var heldWhitespace: ArraySlice<UInt8> = []
        while position < bytes.count {
            if state.newLine {
                let start = position
                skip(while: { $0 == space || $0 == tab })
                let whitespace = bytes[start..<position]
                if state.inDefinition && !state.definitionTopLevel {
                    // Override bodies are dedented by their first line's indent.
                    if let indent = state.definitionIndent {
                        heldWhitespace = whitespace.dropFirst(indent)
                    } else {
                        state.definitionIndent = whitespace.count
                    }
                } else {
                    heldWhitespace = whitespace
                }
            }
            let (text, stop) = try readText()
            switch stop {
            case .newline:
                body.nodes.append(.text(Array(heldWhitespace) + text + [newline]))
                state.newLine = true
                position += 1
                continue
            case .end:
                if !text.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace) + text))
                }
            case .tag:
                if !text.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace) + text))
                    heldWhitespace = []
                    state.newLine = false
                }
            }
            if stop == .end { break }
            let tagStart = position - 2
            guard position < bytes.count else { throw error(at: tagStart, "unclosed tag {{ at the end of the file") }
            guard bytes[position] != newline else {
                throw error(at: tagStart, "a line break right after {{ is not supported")
            }
            var standalone = false
            let sigil = bytes[position]
            switch sigil {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                position += 1
                let name = try readName(tagStart: tagStart)
                if isStandalone(state) {
                    standalone = true
                } else if !heldWhitespace.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace)))
                    heldWhitespace = []
                }
                let inner = try parseBody(section(of: state, name: name, openedAt: tagStart, newLine: standalone))
                body.nodes.append(.section(TemplateName(name), inverted: sigil == UInt8(ascii: "^"), body: inner.nodes))

            case UInt8(ascii: "/"):
                position += 1
                let name = try readName(tagStart: tagStart)
                guard let open = state.sectionName else {
                    throw error(at: tagStart, "unbalanced section: {{/\(name)}} closes nothing")
                }
                guard name == open else {
                    throw error(at: tagStart, "unbalanced section: {{/\(name)}} closes {{\(open)}} opened at \(lineAndColumn(state.openedAt))")
                }
                if !isStandalone(state) && !heldWhitespace.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace)))
                }
                return body

            case UInt8(ascii: "!"):
                position += 1
                guard let end = find(closeBrace, closeBrace, from: position) else {
                    throw error(at: tagStart, "unclosed comment tag")
                }
                position = end + 2
                standalone = isStandalone(state)

            case openBrace, UInt8(ascii: "&"):
                if !heldWhitespace.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace)))
                    heldWhitespace = []
                }
                position += 1
                let name = try readName(tagStart: tagStart)
                if sigil == openBrace {
                    guard position < bytes.count, bytes[position] == closeBrace else {
                        throw error(at: tagStart, "unclosed tag {{{\(name)}}: expected }}}")
                    }
                    position += 1
                }
                body.nodes.append(.value(TemplateName(name), escaped: false))

            case UInt8(ascii: ">"):
                let name = try openPartialTag(tagStart: tagStart, heldWhitespace: heldWhitespace, into: &body)
                standalone = isStandalone(state)
                let (line, column) = lineAndColumnNumbers(tagStart)
                body.nodes.append(
                    .partial(
                        PartialTag(
                            name: name,
                            indentation: standalone ? Array(heldWhitespace) : nil,
                            overrides: nil,
                            line: line,
                            column: column
                        )
                    )
                )
                heldWhitespace = []

            case UInt8(ascii: "<"):
                let name = try openPartialTag(tagStart: tagStart, heldWhitespace: heldWhitespace, into: &body)
                standalone = isStandalone(state)
                var inner = state
                inner.sectionName = name
                inner.openedAt = tagStart
                inner.newLine = true
                inner.inDefinition = true
                inner.definitionTopLevel = true
                var overrides: [ParsedOverride] = []
                for node in try parseBody(inner).nodes {
                    switch node {
                    case .definition(let blockName, let blockBody):
                        // A later definition of the same block wins, as in swift-mustache's dictionary.
                        overrides.removeAll { $0.name == blockName }
                        overrides.append(ParsedOverride(name: blockName, body: blockBody))
                    case .text:
                        continue
                    default:
                        throw error(at: tagStart, "only {{$block}} definitions may appear inside {{<\(name)}}")
                    }
                }
                let (line, column) = lineAndColumnNumbers(tagStart)
                body.nodes.append(
                    .partial(
                        PartialTag(
                            name: name,
                            indentation: Array(heldWhitespace),
                            overrides: overrides,
                            line: line,
                            column: column
                        )
                    )
                )
                heldWhitespace = []

            case UInt8(ascii: "$"):
                position += 1
                let name = try readName(tagStart: tagStart)
                if state.definitionTopLevel {
                    standalone = isStandalone(state)
                    let inner = try parseBody(section(of: state, name: name, openedAt: tagStart, newLine: standalone))
                    body.nodes.append(.definition(name: name, body: inner.nodes))
                } else {
                    if !heldWhitespace.isEmpty {
                        body.nodes.append(.text(Array(heldWhitespace)))
                    }
                    standalone = isStandalone(state)
                    let inner = try parseBody(section(of: state, name: name, openedAt: tagStart, newLine: standalone))
                    body.nodes.append(.block(name: name, fallback: inner.nodes, indentation: Array(heldWhitespace)))
                    heldWhitespace = []
                }

            case UInt8(ascii: "="):
                throw error(at: tagStart, "set-delimiter tags {{=…=}} are not supported")

            case UInt8(ascii: "%"):
                throw error(at: tagStart, "pragmas {{%…}} are not supported")

            default:
                if !heldWhitespace.isEmpty {
                    body.nodes.append(.text(Array(heldWhitespace)))
                    heldWhitespace = []
                }
                let name = try readName(tagStart: tagStart)
                body.nodes.append(.value(TemplateName(name), escaped: true))
            }
            state.newLine = standalone
        }
        if let open = state.sectionName {
            throw error(at: state.openedAt, "unbalanced section: {{\(open)}} is never closed")
        }
        return body
    }

    /// The state for a section or block body opened by a tag in `state`.
    private func section(of state: State, name: String, openedAt: Int, newLine: Bool) -> State {
        var inner = state
        inner.sectionName = name
        inner.openedAt = openedAt
        inner.definitionTopLevel = false
        if !newLine { inner.newLine = false }
        return inner
    }
}
