import Foundation
import Mustache

// A byte-level renderer for Templates/**/*.mustache. swift-mustache 2.1.1 stays the reference for
// what the output must be (CompiledTemplatesTests compares every page byte for byte), but it
// escapes per Character through a dictionary, casts existentials per token and concatenates
// Strings, which cost 1–2 ms per list page. Here templates are parsed once into one flat
// instruction array (names split at load time, partials resolved to indexes), and rendering walks
// it, appending UTF-8 bytes to one growing [UInt8].
//
// Supported: text, {{name}}, {{{name}}}, {{&name}}, {{#section}}, {{^inverted}}, {{! comments }},
// {{> partial}}, {{<parent}}{{$block}}…{{/block}}{{/parent}}, {{$block}}default{{/block}},
// dotted names, {{.}}, standalone-line and partial-indentation rules. Refused at load time (all
// of them are absent from our templates): set-delimiter tags, {{% pragmas}}, transforms such as
// {{uppercased(name)}}, dynamic partials {{>*name}}, partials that name no loaded template, tag
// openers followed by a line break, line terminators other than "\n", and ASCII characters fused
// with a combining mark into one Character.
//
// One deliberate difference: swift-mustache leaves `"`, `<`, … unescaped when a combining mark
// follows them (it compares whole Characters), which lets a value end an attribute; bytes are
// always escaped here.

/// A partial's output that the caller already has, so the renderer can skip rendering it again.
///
/// When a `{{> name}}` tag is reached and the innermost context value conforms, the bytes it
/// returns are written verbatim instead of rendering the partial; nil renders it normally. The
/// bytes must be exactly what the partial would render for that value (escaping included), and
/// they are not re-indented, so only use this for partial tags that are not indented.
public protocol PrerenderedPartial {
    /// The finished output of the partial called `name` for this value, or nil to render it.
    func prerendered(partial name: String) -> [UInt8]?
}

/// Every template of a folder, parsed once and rendered to UTF-8 bytes exactly as swift-mustache's
/// `MustacheLibrary(directory:)` would render them.
public struct CompiledTemplates: Sendable {
    /// Why a template folder could not be loaded; `description` names the file, line and problem.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// The template's path relative to the loaded folder, e.g. `partials/card.mustache`.
        public let file: String
        /// 1-based line of the offending tag (0 when the problem is not tied to a position).
        public let line: Int
        /// 1-based column, counted in UTF-8 bytes.
        public let column: Int
        /// What is wrong, e.g. "unbalanced section: {{/cards}} closes {{#hasCards}}".
        public let message: String

        /// "partials/card.mustache:12:5: unclosed tag", for the startup error.
        public var description: String {
            line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
        }
    }

    /// Every template's instructions, text bytes and tables, in one program.
    let program: TemplateProgram
    /// Template index (into `program.templates`) by name: relative path without extension, e.g. `partials/card`.
    let indexByName: [String: Int]

    /// Parses every `*.mustache` file below `directory` (recursively), with its `{{t:key}}` text
    /// tags filled in by `text` (see `TemplateLocalization`; without `text` they must be absent).
    ///
    /// Names are relative paths without the extension, as in swift-mustache. Throws `LoadError`
    /// for a file that cannot be parsed, uses unsupported syntax or names an unknown partial or text.
    public static func load(directory: String, text: (String) -> String? = { _ in nil }) throws -> CompiledTemplates {
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        let suffix = ".mustache"
        var paths: [String] = []
        // The same enumeration swift-mustache uses, so both see the same set of files.
        if let enumerator = FileManager().enumerator(atPath: folder) {
            for case let path as String in enumerator where path.hasSuffix(suffix) {
                paths.append(path)
            }
        }
        paths.sort()
        var parsed: [ParsedTemplate] = []
        for path in paths {
            guard let data = FileManager().contents(atPath: folder + path) else { continue }
            // Decoding like swift-mustache (invalid UTF-8 becomes U+FFFD) keeps the bytes identical.
            let source = try TemplateLocalization.localize(String(decoding: data, as: UTF8.self), file: path, text: text)
            var parser = try TemplateParser(source: source, file: path)
            let nodes = try parser.parseTemplate()
            parsed.append(ParsedTemplate(name: String(path.dropLast(suffix.count)), file: path, nodes: nodes, sourceSize: source.utf8.count))
        }
        var indexByName: [String: Int] = [:]
        for (index, template) in parsed.enumerated() {
            indexByName[template.name] = index
        }
        var builder = ProgramBuilder(indexByName: indexByName)
        for template in parsed {
            try builder.add(template)
        }
        return CompiledTemplates(program: builder.program, indexByName: indexByName)
    }

    /// True when a template called `name` was loaded.
    public func contains(template name: String) -> Bool { indexByName[name] != nil }

    /// Renders template `name` with `context` as the root of the context stack; nil for an unknown name.
    public func render(_ context: Any, template name: String) -> [UInt8]? {
        guard let index = indexByName[name] else { return nil }
        // A page is a few times its template's size once partials and lists are expanded; one
        // generous reservation avoids most regrowth copies.
        var output: [UInt8] = []
        output.reserveCapacity(max(32_768, program.templates[index].sourceSize * 8))
        renderTemplate(index, context: context, into: &output)
        return output
    }

    /// Appends the rendering of template `name` to `output`; false (output untouched) for an unknown name.
    public func render(_ context: Any, template name: String, into output: inout [UInt8]) -> Bool {
        guard let index = indexByName[name] else { return false }
        renderTemplate(index, context: context, into: &output)
        return true
    }
}
