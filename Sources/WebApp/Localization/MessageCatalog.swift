import Foundation
import PetDomain

/// One language's texts as read from `Templates/locales/<code>.messages` (docs/languages.md): plain
/// `key = value` lines, and `key[category] = value` lines for counted texts (CLDR plural
/// categories). Loaded and checked once at startup, like the templates.
struct MessageCatalog: Sendable {
    /// Why a catalog could not be loaded; names the file, line and problem.
    struct LoadError: Error, CustomStringConvertible, Sendable {
        let file: String
        let line: Int
        let message: String
        var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
    }

    /// Plain texts by key.
    let texts: [String: String]
    /// Counted texts by key, then by plural category.
    let counted: [String: [PluralCategory: String]]

    /// Every key, plain and counted.
    var keys: Set<String> { Set(texts.keys).union(counted.keys) }

    /// Parses the text of a catalog file (named `file` in errors).
    static func parse(_ source: String, file: String) throws(LoadError) -> MessageCatalog {
        var texts: [String: String] = [:]
        var counted: [String: [PluralCategory: String]] = [:]
        for (offset, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.range(of: " = ") ?? line.range(of: " =", options: .anchored.union(.backwards)) else {
                throw LoadError(file: file, line: offset + 1, message: "expected `key = value`")
            }
            let key = String(line[..<equals.lowerBound])
            let value = String(line[equals.upperBound...]).trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(" ") else { throw LoadError(file: file, line: offset + 1, message: "bad key '\(key)'") }
            guard !value.contains("{{"), !value.contains("}}") else {
                throw LoadError(file: file, line: offset + 1, message: "'\(key)': a text cannot hold {{ or }}")
            }
            if key.hasSuffix("]"), let open = key.firstIndex(of: "[") {
                let name = String(key[..<open])
                let categoryName = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
                guard let category = PluralCategory(rawValue: categoryName) else {
                    throw LoadError(file: file, line: offset + 1, message: "'\(key)': unknown plural category '\(categoryName)'")
                }
                guard counted[name]?[category] == nil, texts[name] == nil else {
                    throw LoadError(file: file, line: offset + 1, message: "'\(key)' is given twice")
                }
                counted[name, default: [:]][category] = value
            } else {
                guard texts[key] == nil, counted[key] == nil else {
                    throw LoadError(file: file, line: offset + 1, message: "'\(key)' is given twice")
                }
                texts[key] = value
            }
        }
        return MessageCatalog(texts: texts, counted: counted)
    }

    /// Problems with this catalog for a language with `rules`: counted texts missing a category
    /// the language needs, and keys of `required` (plain or counted) it lacks.
    func problems(rules: PluralRules, required: [(key: String, counted: Bool)]) -> [String] {
        var problems: [String] = []
        for (key, forms) in counted.sorted(by: { $0.key < $1.key }) {
            for category in rules.categories where forms[category] == nil {
                problems.append("'\(key)' has no [\(category.rawValue)] form")
            }
        }
        for (key, isCounted) in required {
            if isCounted, counted[key] == nil { problems.append("counted text '\(key)' is missing") }
            if !isCounted, texts[key] == nil { problems.append("text '\(key)' is missing") }
        }
        return problems
    }
}
