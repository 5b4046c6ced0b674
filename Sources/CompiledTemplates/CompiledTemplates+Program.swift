// The compiled form: parse trees (TemplateNode) are flattened into one array of integer-only
// instructions so that rendering walks it without reference counting or dictionary lookups.

/// One parsed file before it is flattened into the program.
struct ParsedTemplate {
    /// Relative path without extension.
    let name: String
    /// Relative path, for errors.
    let file: String
    /// The parse tree.
    let nodes: [TemplateNode]
    /// Source length in bytes, used to size the output buffer.
    let sourceSize: Int
}

/// All templates flattened into one instruction array. Instructions hold only integers, so walking
/// them costs no reference counting; names, texts and partial calls live in side tables.
struct TemplateProgram: Sendable {
    /// Instructions; a template, section or block body is a contiguous range of them.
    var code: [TemplateOp] = []
    /// Text of every `.text` and `.textRun` instruction.
    var bytes: [UInt8] = []
    /// Names used by `.value` and `.section`.
    var names: [TemplateName] = []
    /// Partial tags used by `.partial`.
    var calls: [PartialCall] = []
    /// Blocks used by `.block`.
    var blocks: [BlockInfo] = []
    /// Each template's instruction range, in the order of `CompiledTemplates.indexByName`'s values.
    var templates: [TemplateEntry] = []
}

/// One instruction. Bodies follow their opening instruction and end before `end`.
enum TemplateOp: Sendable {
    /// One line of literal text: `bytes[start..<end]`.
    case text(start: Int, end: Int)
    /// Several consecutive `.text` lines written at once when no indentation applies; they follow
    /// it and `next` is the instruction after them (with indentation they run one by one instead).
    case textRun(start: Int, end: Int, next: Int)
    /// `{{name}}` or `{{{name}}}` / `{{&name}}`: index into `names`.
    case value(name: Int, escaped: Bool)
    /// `{{#name}}` / `{{^name}}`; the body is the instructions up to `end`.
    case section(name: Int, inverted: Bool, end: Int)
    /// `{{> name}}` / `{{<name}}…{{/name}}`: index into `calls`.
    case partial(call: Int)
    /// `{{$name}}default{{/name}}`: index into `blocks`; the default body runs up to `end`.
    case block(block: Int, end: Int)
}

/// A template's place in the program.
struct TemplateEntry: Sendable {
    /// Relative path without extension.
    let name: String
    /// First instruction.
    let start: Int
    /// One past the last instruction.
    let end: Int
    /// Source length in bytes, used to size the output buffer.
    let sourceSize: Int
}

/// A `{{> name}}` or `{{<name}}` tag, resolved.
struct PartialCall: Sendable {
    /// Template name as written, also the key passed to `PrerenderedPartial`.
    let name: String
    /// Index into `TemplateProgram.templates`.
    let template: Int
    /// Extra indentation of a standalone tag; nil keeps the current indentation.
    let indentation: [UInt8]?
    /// Block overrides of a `{{<name}}` tag (instruction ranges); nil for a plain partial.
    var overrides: [BlockOverride]?
}

/// A `{{$name}}…{{/name}}` definition inside `{{<parent}}`, as an instruction range.
struct BlockOverride: Sendable {
    /// The block it replaces.
    let name: String
    /// First instruction of the replacement.
    var start: Int
    /// One past its last instruction.
    var end: Int
}

/// A `{{$name}}` block outside an inheritance tag.
struct BlockInfo: Sendable {
    /// The block's name, matched against overrides in scope.
    let name: String
    /// Whitespace before a tag, added to the indentation of whatever the block renders.
    let indentation: [UInt8]
}

/// Flattens parse trees into a `TemplateProgram`, resolving partial names.
struct ProgramBuilder {
    /// The program built so far.
    private(set) var program = TemplateProgram()
    private let indexByName: [String: Int]
    /// Override bodies still to be emitted: which call and which of its overrides they belong to.
    private var pending: [(call: Int, override: Int, nodes: [TemplateNode])] = []
    private var file = ""

    /// A builder that resolves partials against `indexByName`.
    init(indexByName: [String: Int]) {
        self.indexByName = indexByName
    }

    /// Appends one template; templates must be added in index order.
    mutating func add(_ template: ParsedTemplate) throws {
        file = template.file
        let start = program.code.count
        try emit(template.nodes)
        let end = program.code.count
        // Override bodies go after the template's own range, where sequential execution never reaches.
        while let next = pending.popLast() {
            let bodyStart = program.code.count
            try emit(next.nodes)
            program.calls[next.call].overrides?[next.override].start = bodyStart
            program.calls[next.call].overrides?[next.override].end = program.code.count
        }
        program.templates.append(TemplateEntry(name: template.name, start: start, end: end, sourceSize: template.sourceSize))
    }

    private mutating func emit(_ nodes: [TemplateNode]) throws {
        var index = 0
        while index < nodes.count {
            // Consecutive lines of text also get one merged instruction for the unindented case.
            var runEnd = index
            while runEnd < nodes.count, case .text = nodes[runEnd] { runEnd += 1 }
            if runEnd - index > 1 {
                let runOp = program.code.count
                let runStart = program.bytes.count
                program.code.append(.textRun(start: runStart, end: runStart, next: runOp + 1))  // placeholder
                for case .text(let bytes) in nodes[index..<runEnd] {
                    emitText(bytes)
                }
                // The lines' bytes are contiguous, so the run is one range.
                program.code[runOp] = .textRun(start: runStart, end: program.bytes.count, next: program.code.count)
                index = runEnd
                continue
            }
            try emit(nodes[index])
            index += 1
        }
    }

    private mutating func emitText(_ bytes: [UInt8]) {
        let start = program.bytes.count
        program.bytes.append(contentsOf: bytes)
        program.code.append(.text(start: start, end: program.bytes.count))
    }

    private mutating func emit(_ node: TemplateNode) throws {
        switch node {
        case .text(let bytes):
            emitText(bytes)
        case .value(let name, let escaped):
            program.names.append(name)
            program.code.append(.value(name: program.names.count - 1, escaped: escaped))
        case .section(let name, let inverted, let body):
            let nameIndex = program.names.count
            program.names.append(name)
            let op = program.code.count
            program.code.append(.text(start: 0, end: 0))  // placeholder until the body's end is known
            try emit(body)
            program.code[op] = .section(name: nameIndex, inverted: inverted, end: program.code.count)
        case .partial(let tag):
            guard let template = indexByName[tag.name] else {
                throw CompiledTemplates.LoadError(
                    file: file,
                    line: tag.line,
                    column: tag.column,
                    message: "unknown partial {{> \(tag.name)}}: no \(tag.name).mustache was loaded"
                )
            }
            let call = program.calls.count
            let overrides = tag.overrides.map { $0.map { BlockOverride(name: $0.name, start: 0, end: 0) } }
            program.calls.append(PartialCall(name: tag.name, template: template, indentation: tag.indentation, overrides: overrides))
            for (index, override) in (tag.overrides ?? []).enumerated() {
                pending.append((call, index, override.body))
            }
            program.code.append(.partial(call: call))
        case .block(let name, let fallback, let indentation):
            program.blocks.append(BlockInfo(name: name, indentation: indentation))
            let block = program.blocks.count - 1
            let op = program.code.count
            program.code.append(.text(start: 0, end: 0))  // placeholder until the body's end is known
            try emit(fallback)
            program.code[op] = .block(block: block, end: program.code.count)
        case .definition:
            // Only ever collected into a partial tag's overrides by the parser.
            break
        }
    }
}

/// A name as written in a tag, split at parse time.
struct TemplateName: Sendable {
    /// The tag text, for error messages and section matching.
    let text: String
    /// Dot-separated components, empty components dropped; empty means the current value (`{{.}}`).
    let components: [String]
    /// A leading "." looks only at the innermost context value instead of walking the stack.
    let anchored: Bool
    /// `components.first`, looked up on each context value in turn ("" when there is none).
    let head: String
    /// True for a single-component, unanchored name: the common case, with no path to follow.
    let isSimple: Bool

    /// Splits `text` the way swift-mustache does (`split(separator: ".")`, empty parts dropped).
    init(_ text: String) {
        self.text = text
        self.components = text.split(separator: ".").map(String.init)
        self.anchored = text.first == "."
        self.head = components.first ?? ""
        self.isSimple = components.count == 1 && !anchored
    }
}

/// A `{{$name}}…{{/name}}` definition given inside `{{<parent}}…{{/parent}}`, as parsed.
struct ParsedOverride: Sendable {
    /// The block it replaces.
    let name: String
    /// Replacement content, rendered in the parent's context at the block's place.
    let body: [TemplateNode]
}

/// A `{{> name}}` or `{{< name}}` tag as parsed.
struct PartialTag: Sendable {
    /// Template name as written.
    let name: String
    /// Extra indentation for a standalone partial tag (nil keeps the current indentation).
    let indentation: [UInt8]?
    /// Block overrides of a `{{<parent}}` tag; nil for a plain partial.
    let overrides: [ParsedOverride]?
    /// Tag line, for the unknown-partial error.
    let line: Int
    /// Tag column, for the unknown-partial error.
    let column: Int
}

/// One node of a parse tree; nested bodies are node arrays of their own.
enum TemplateNode: Sendable {
    /// Literal bytes (one template line at most, as swift-mustache splits them, which matters for indentation).
    case text([UInt8])
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case value(TemplateName, escaped: Bool)
    /// `{{#name}}` or `{{^name}}` with its body.
    case section(TemplateName, inverted: Bool, body: [TemplateNode])
    /// `{{> name}}` or `{{< name}}…{{/name}}`.
    case partial(PartialTag)
    /// `{{$name}}default{{/name}}` outside an inheritance tag: replaced by an override when one is in scope.
    case block(name: String, fallback: [TemplateNode], indentation: [UInt8])
    /// `{{$name}}…{{/name}}` directly inside `{{<parent}}`: only ever collected into `PartialTag.overrides`.
    case definition(name: String, body: [TemplateNode])
}
