import CompiledTemplates
import Foundation

@testable import WebApp

/// The repository's templates folder, found from this file's path (Tests/CompiledTemplatesTests/LocalizedTemplates.swift).
let sourceTemplatesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Templates").path

/// A copy of `Templates/` with its `{{t:key}}` text tags filled in for `language` (what the server
/// compiles at startup), written once per process to a temporary folder: plain Mustache that
/// swift-mustache, the reference renderer, can read.
func localizedTemplatesDirectory(_ language: Language) throws -> String {
    let texts = try SiteTexts.load(directory: sourceTemplatesDirectory)[language]
    let target = FileManager.default.temporaryDirectory
        .appendingPathComponent("petspot-templates-\(language.rawValue)-\(ProcessInfo.processInfo.processIdentifier)").path
    guard let enumerator = FileManager().enumerator(atPath: sourceTemplatesDirectory) else { return target }
    for case let path as String in enumerator where path.hasSuffix(".mustache") {
        let source = try String(contentsOfFile: sourceTemplatesDirectory + "/" + path, encoding: .utf8)
        let localized = try TemplateLocalization.localize(source, file: path, text: texts.template)
        let file = URL(fileURLWithPath: target + "/" + path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(localized.utf8).write(to: file, options: .atomic)
    }
    return target
}
