import Foundation
import Mustache
import TemplateSamples
import Testing

@testable import CompiledTemplates
@testable import WebApp

// Every template file of Templates/, rendered with the site's own view models filled as the pages
// fill them (`TemplateSamples`, also what scripts/bench/templates.sh times), by both engines in
// both languages: the outputs must be the same bytes, and not an empty page.

/// Templates that no page renders on its own: the parent layout and the partials, reached through the pages.
private func isReachedThroughPages(_ name: String) -> Bool {
    name == "layout" || name.hasPrefix("partials/")
}

@Test func samples_cover_every_page_template_file() throws {
    let templates = try CompiledTemplates.load(directory: try localizedTemplatesDirectory(.en))
    let pages = Set(templates.indexByName.keys.filter { !isReachedThroughPages($0) })
    #expect(pages == Set(TemplateSamples.all().map(\.template)).subtracting(["partials/card"]))
    #expect(pages.isSuperset(of: PageRenderer.requiredTemplates.filter { !isReachedThroughPages($0) }))
}

@Test(arguments: [Language.en, Language.pl])
func every_template_renders_its_sample_like_swift_mustache(language: Language) async throws {
    let directory = try localizedTemplatesDirectory(language)
    let templates = try CompiledTemplates.load(directory: directory)
    let library = try await MustacheLibrary(directory: directory)
    for sample in TemplateSamples.all(listCards: 20, mapPlaces: 20) {
        let ours = try #require(templates.render(sample.model, template: sample.template), "\(sample.label)")
        let reference = try #require(library.render(sample.model, withTemplate: sample.template), "\(sample.label)")
        #expect(ours == Array(reference.utf8), "\(sample.label) in \(language.rawValue)")
        // The sample fills the page: its texts reach the output (a page of empty sections would also match).
        // Mails have no page title: their sample's search is their marker (a relay mail's: its sighting's place).
        let marker =
            sample.template == "partials/card"
            ? "a1b2c3d4-1000"
            : sample.template.hasPrefix("mail/sighting")
                ? "Krzyki, Wrocław" : (sample.template.hasPrefix("mail/") ? "Missing dogs within 5 km" : "near you · PetSpot")
        #expect(String(decoding: ours, as: UTF8.self).contains(marker), "\(sample.label)")
    }
}
