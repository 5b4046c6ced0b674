import CompiledTemplates
import Foundation
import HTTPTypes
import MicroHTTP

/// Renders page view models with the Mustache templates of `Templates/`, through
/// `CompiledTemplates`: output identical to swift-mustache's (tests compare them byte for byte)
/// at about a tenth of its cost (docs/templates.md: 127–139 µs instead of 1.57–1.63 ms for a 20-card
/// list page rendered from models, release build on this machine kind). With its texts, it is the
/// site's renderer (`SiteContext.renderer`): the words of a page and the page as an HTML response.
struct PageRenderer: Sendable {
    /// Page templates that must exist; checked at startup (docs/platform.md: a missing folder gives an
    /// empty library and an unknown name renders nil, silently).
    static let requiredTemplates = [
        "layout", "landing", "list", "map", "details", "error", "poster", "report", "report-result", "matches",
        "report-photo", "alert", "mail/confirm-html", "mail/confirm-text", "mail/alert-html", "mail/alert-text", "sighting",
        "mail/sighting-html", "mail/sighting-text",
    ]

    /// The templates compiled once per language, by `Language.index`.
    private let templates: [CompiledTemplates]
    /// Every language's texts and formats, from `<directory>/locales/*.messages`.
    private let catalogs: SiteTexts

    /// Loads the message catalogs and every `*.mustache` below `directory`, once per language;
    /// throws naming the setting when the folder, a catalog, a text or a page template is missing.
    static func load(directory: String) async throws -> PageRenderer {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StartupError(setting: "--templates-dir / PETSPOT_TEMPLATES_DIR", problem: "folder '\(directory)' does not exist")
        }
        let texts: SiteTexts
        do {
            texts = try SiteTexts.load(directory: directory)
        } catch {
            throw StartupError(setting: "--templates-dir / PETSPOT_TEMPLATES_DIR", problem: error.description)
        }
        var templates: [CompiledTemplates] = []
        for language in Language.allCases {
            let compiled: CompiledTemplates
            do {
                compiled = try CompiledTemplates.load(directory: directory, text: texts[language].template)
            } catch let error as CompiledTemplates.LoadError {
                throw StartupError(setting: "--templates-dir / PETSPOT_TEMPLATES_DIR", problem: "\(language.rawValue): \(error.description)")
            }
            for name in requiredTemplates where !compiled.contains(template: name) {
                throw StartupError(
                    setting: "--templates-dir / PETSPOT_TEMPLATES_DIR",
                    problem: "template '\(name).mustache' is missing in '\(directory)'"
                )
            }
            templates.append(compiled)
        }
        return PageRenderer(templates: templates, catalogs: texts)
    }

    /// The texts of `language`.
    func texts(_ language: PageLanguage) -> Texts { catalogs[language.language] }

    /// Renders `model` with `template` in `language` as a 200 HTML response (not yet finished: see
    /// `PageCaches.reply`).
    func page(_ model: some ViewModel, template: String, language: PageLanguage, status: HTTPResponse.Status = .ok) -> Response {
        guard let html = render(model, template: template, language: language.language) else {
            return Response.text("Internal error\n", status: 500)
        }
        return Response(status: status, headers: PageRenderer.htmlHeaders(language), body: html)
    }

    /// The headers of an HTML page in `language`: `Content-Language`, and `Vary: Accept-Language`
    /// when that header chose the language (not the URL).
    static func htmlHeaders(_ language: PageLanguage) -> HTTPFields {
        htmlHeaderVariants[2 * language.language.index + (language.explicit ? 1 : 0)]
    }

    /// `htmlHeaders` of each language, chosen by the header (even) or by the URL (odd): made once,
    /// since every page asks (callgrind: making them was ~1 % of a located page).
    private static let htmlHeaderVariants: [HTTPFields] = Language.allCases.flatMap { language in
        [false, true].map { explicit in
            var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .contentLanguage: language.rawValue]
            if !explicit { fields.append(HTTPField(name: .vary, value: "Accept-Language")) }
            return fields
        }
    }

    /// Renders `model` with the template `name` in `language`, in an array no larger than it needs
    /// (fragments and kept pages live long); nil only for a template name not checked at startup.
    func render(_ model: some ViewModel, template name: String, language: Language) -> [UInt8]? {
        templates[language.index].render(model, template: name).map(PageRenderer.compact)
    }

    /// `bytes` in storage of its own size: the renderer reserves generously for speed, which a
    /// kept page or fragment should not carry for its lifetime.
    static func compact(_ bytes: [UInt8]) -> [UInt8] {
        bytes.capacity > bytes.count + 1024 ? Array(bytes[...]) : bytes
    }
}
