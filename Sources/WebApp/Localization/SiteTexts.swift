import Foundation

/// Every language's texts, loaded from `<templates>/locales/<code>.messages` at startup.
struct SiteTexts: Sendable {
    private let byLanguage: [Texts]

    /// The texts of `language`.
    subscript(_ language: Language) -> Texts { byLanguage[language.index] }

    /// Loads and checks every language's catalog below `directory` (the templates folder).
    static func load(directory: String) throws(MessageCatalog.LoadError) -> SiteTexts {
        var all: [Texts] = []
        for language in Language.allCases {
            let file = "locales/\(language.rawValue).messages"
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + file
            guard let data = FileManager().contents(atPath: path) else {
                throw MessageCatalog.LoadError(file: file, line: 0, message: "the message catalog is missing")
            }
            let catalog = try MessageCatalog.parse(String(decoding: data, as: UTF8.self), file: file)
            all.append(try Texts(language: language, catalog: catalog, file: file))
        }
        if let first = all.first {
            for other in all.dropFirst() where other.keySet != first.keySet {
                let missing = first.keySet.symmetricDifference(other.keySet).sorted()
                throw MessageCatalog.LoadError(
                    file: "locales",
                    line: 0,
                    message: "\(first.language.rawValue) and \(other.language.rawValue) differ in: \(missing.joined(separator: ", "))"
                )
            }
        }
        return SiteTexts(byLanguage: all)
    }
}
