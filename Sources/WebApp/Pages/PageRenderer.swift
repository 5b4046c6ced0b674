import Foundation
import Mustache

/// Renders page view models with the Mustache templates of `Templates/`.
struct PageRenderer: Sendable {
    /// Page templates that must exist; checked at startup (platform-notes: a missing folder gives an
    /// empty library and an unknown name renders nil, silently).
    static let requiredTemplates = ["layout", "landing", "list", "details", "error"]

    private let library: MustacheLibrary

    /// Loads every `*.mustache` below `directory`; throws naming the setting when the folder or a page template is missing.
    static func load(directory: String) async throws -> PageRenderer {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StartupError(setting: "--templates-dir / PETSPOT_TEMPLATES_DIR", problem: "folder '\(directory)' does not exist")
        }
        let library = try await MustacheLibrary(directory: directory)
        for name in requiredTemplates where library.getTemplate(named: name) == nil {
            throw StartupError(setting: "--templates-dir / PETSPOT_TEMPLATES_DIR", problem: "template '\(name).mustache' is missing in '\(directory)'")
        }
        return PageRenderer(library: library)
    }

    /// Renders `model` with the template `name`; nil only if the template vanished (checked at startup).
    func render(_ model: Any, template name: String) -> String? {
        library.render(model, withTemplate: name)
    }
}
