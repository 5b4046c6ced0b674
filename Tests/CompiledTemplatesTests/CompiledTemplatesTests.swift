import Foundation
import HTTPTypes
import Mustache
import Testing

@testable import CompiledTemplates
@testable import WebApp

// CompiledTemplates must render exactly what swift-mustache renders, so every test here renders
// the same model both ways and compares bytes. The models vary everything a template branches on
// (nils, empty lists, banner, pagination, stale notice) and fill text with characters that must be
// escaped, mustache-looking text, Polish diacritics and emoji.

/// Text that exercises escaping and UTF-8: every escaped character, mustache syntax, diacritics, emoji.
private let nasty =
    "<script>alert(\"x & y\")</script> 'single' {{name}} }} {{{raw}}} "
    + "Zażółć gęślą jaźń — Łódź 🐶🐱 👩‍👩‍👧 e\u{301}"

/// The English templates as the server compiles them (text tags filled in, docs/languages.md).
private let templatesDirectory = (try? localizedTemplatesDirectory(.en)) ?? sourceTemplatesDirectory

/// swift-mustache's rendering of `model` with template `name`, as UTF-8 bytes.
private func reference(_ model: Any, _ name: String, directory: String = templatesDirectory) async throws -> [UInt8] {
    let library = try await MustacheLibrary(directory: directory)
    let text = try #require(library.render(model, withTemplate: name))
    return Array(text.utf8)
}

/// Our rendering of `model` with template `name`.
private func compiled(_ model: Any, _ name: String, directory: String = templatesDirectory) throws -> [UInt8] {
    let templates = try CompiledTemplates.load(directory: directory)
    return try #require(templates.render(model, template: name))
}

/// Asserts both renderers agree; on a mismatch reports the first differing byte with context.
private func expectSameOutput(
    _ model: Any,
    _ name: String,
    directory: String = templatesDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let expected = try await reference(model, name, directory: directory)
    let actual = try compiled(model, name, directory: directory)
    if expected != actual {
        let index = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, actual.count)
        let from = max(0, index - 80)
        let want = String(decoding: expected[from..<min(expected.count, index + 80)], as: UTF8.self)
        let got = String(decoding: actual[from..<min(actual.count, index + 80)], as: UTF8.self)
        Issue.record(
            "\(name): first difference at byte \(index)\nswift-mustache: …\(want)…\ncompiled:       …\(got)…",
            sourceLocation: sourceLocation
        )
    }
}

// MARK: Models

private func layout(_ variant: Int, text: String = "PetSpot") -> LayoutModel {
    LayoutModel(
        pageTitle: "\(text) · PetSpot",
        metaDescription: "Lost & found \(text)",
        canonicalURL: variant % 2 == 0 ? "https://petspot.example/pets?q=\(text)&x=1" : nil,
        ogTitle: text,
        ogDescription: "Description \(text)",
        ogImage: variant % 3 == 0 ? "https://petspot.example/images/1.jpg?a=1&b=\"2\"" : nil,
        ogType: variant % 2 == 0 ? "website" : "article",
        twitterCard: "summary",
        homeURL: "/?location=known&lat=52.2",
        listURL: "/pets?lat=52.2&lng=21.0",
        mapURL: "/map?lat=52.2&lng=21.0",
        isHome: variant % 2 == 0,
        isList: variant % 2 == 1,
        isMap: variant % 3 == 2,
        hasMap: variant % 2 == 0,
        locationState: ["known", "denied", "unknown"][variant % 3]
    )
}

private func banner(_ text: String = "Location Access Needed") -> BannerModel {
    BannerModel(
        title: text,
        message: "Enable location access in your browser settings to see nearby pets.",
        tryAgainURL: "/pets?status=missing&range=5",
        dismissURL: "/pets?status=missing&dismiss=1"
    )
}

private func card(_ index: Int, text: String = "Max") -> CardModel {
    let all = index % 2 == 0
    return CardModel(
        id: "pet-\(index)",
        detailURL: "/pets/pet-\(index)?from=list&lat=52.1",
        name: index % 5 == 4 ? "Unnamed pet" : "\(text) \(index)",
        speciesLabel: ["Dog", "Cat", "Other"][index % 3],
        statusLabel: ["MISSING", "FOUND", "CLOSED"][index % 3],
        statusClass: ["missing", "found", "closed"][index % 3],
        photoURL: index % 4 == 3 ? nil : "/images/pet-\(index).jpg?w=800&h=600",
        photoSrcset: index % 4 == 0 ? "/images/pet-\(index).jpg?w=320 320w, /images/p \"q\".jpg?w=640&x=<y> 640w" : nil,
        photoAlt: "Photo of \(text) \(index), a dog",
        breed: all ? "Golden \"Retriever\" & <mix>" : nil,
        lastSeenText: "Nov 18, 2025",
        placeText: index % 3 == 0 ? "52.2297° N, 21.0122° E" : "Warszawa ±5 km, ul. Żółta 'B'",
        distanceText: all ? "2.3 km away" : nil,
        rewardText: index % 3 == 0 ? "Reward 500 PLN" : nil,
        excerpt: index % 3 == 1 ? nil : "Very friendly \(text); answers to \"\(text)\" & <whistles>. Zażółć 🐕"
    )
}

private func options(_ values: [String], selected: Int) -> [OptionModel] {
    values.enumerated().map { OptionModel(value: $0.element, label: "Label \($0.element) <&>", selected: $0.offset == selected) }
}

private func listPage(cards count: Int, variant: Int, text: String = "Max") -> ListPageModel {
    ListPageModel(
        layout: layout(variant, text: text),
        banner: variant % 2 == 0 ? banner(text) : nil,
        staleNotice: variant % 3 == 0 ? "Showing saved data from 3 minutes ago: \(text)" : nil,
        heading: "Lost and found \(text)",
        resultSummary: "\(count) pets near \(text)",
        mapURL: "/map?status=missing&x=\(text)",
        cards: (0..<count).map { card($0, text: text) },
        hasCards: count > 0,
        emptyMessage: "No pets match \(text).",
        clearFiltersURL: variant % 2 == 1 ? "/pets?lat=52.2&clear=1" : nil,
        statusOptions: options(["", "missing", "found"], selected: variant % 3),
        speciesOptions: variant == 2 ? [] : options(["", "dog", "cat"], selected: 1),
        sortOptions: options(["newest", "nearest"], selected: 0),
        hiddenFields: variant % 2 == 0 ? [HiddenField(name: "lat", value: "52.2"), HiddenField(name: "q", value: text)] : [],
        pagination: variant == 0
            ? nil
            : PaginationModel(
                previousURL: variant % 2 == 0 ? "/pets?page=1&x=\(text)" : nil,
                nextURL: variant % 3 == 0 ? nil : "/pets?page=3",
                summary: "Page 2 of 3"
            )
    )
}

private func landingPage(cards count: Int, variant: Int, text: String = "Max") -> LandingPageModel {
    LandingPageModel(
        layout: layout(variant, text: text),
        banner: variant % 2 == 1 ? banner(text) : nil,
        staleNotice: variant % 2 == 0 ? "Saved data: \(text)" : nil,
        cards: (0..<count).map { card($0, text: text) },
        hasCards: count > 0,
        emptyMessage: "Nothing reported near \(text).",
        viewAllURL: "/pets?lat=52.2&lng=21.0",
        nearbyText: variant % 3 == 0 ? "Within 10 km of \(text)" : nil
    )
}

private func detailsPage(variant: Int, text: String = "Max") -> DetailsPageModel {
    let full = variant % 2 == 0
    return DetailsPageModel(
        layout: layout(variant, text: text),
        staleNotice: variant % 3 == 0 ? "Stale: \(text)" : nil,
        id: "pet-\(variant)",
        name: text,
        statusLabel: "MISSING",
        statusClass: "missing",
        rewardText: full ? "Reward 500 PLN & more" : nil,
        photoURL: full ? "/images/x.jpg?a=1&b=2" : nil,
        photoSrcset: full ? "/images/x.jpg?w=640&b=\"2\" 640w" : nil,
        photoFullURL: full ? "/images/x.jpg?<full>" : nil,
        photoAlt: "Photo of \(text)",
        subtitle: "Dog · \(text)",
        rows: variant == 3
            ? []
            : [
                DetailRow(label: "Species", value: "Dog", href: nil),
                DetailRow(label: "Place", value: text, href: "https://www.openstreetmap.org/?mlat=52.2&mlon=21.0#map=16/52.2/21.0"),
                DetailRow(label: "Contact <phone>", value: "+48 601 234 567", href: "tel:+48601234567"),
            ],
        description: full ? "Line one \(text)\nLine two\r\nLine three\twith tab" : nil,
        mapURL: full ? "https://www.openstreetmap.org/?mlat=52.2&mlon=21.0" : nil,
        pinMap: full
            ? PinMapModel(
                latitude: "52.2",
                longitude: "21.0",
                statusClass: "missing",
                label: "Map of \(text)",
                tileURL: "/tiles/{z}/{x}/{y}.png"
            ) : nil,
        phoneHref: variant % 3 == 1 ? nil : "tel:+48601234567",
        phoneText: variant % 4 == 3 ? nil : "+48 601 234 567",
        emailHref: variant % 3 == 2 ? nil : "mailto:\(text)@example.com",
        emailText: variant % 4 == 3 ? nil : "\(text)@example.com",
        shareURL: "https://petspot.example/pets/pet-\(variant)?a=1&b=2",
        shareTitle: "\(text) — missing dog",
        backURL: "/pets?lat=52.2&lng=21.0"
    )
}

private func mapPage(places count: Int, variant: Int, text: String = "Max") -> MapPageModel {
    MapPageModel(
        layout: layout(variant, text: text),
        banner: variant % 2 == 0 ? banner(text) : nil,
        staleNotice: variant % 3 == 0 ? "Saved data: \(text)" : nil,
        heading: "\(text) on the map",
        resultSummary: "\(count) pets",
        listURL: "/pets?species=dog&x=\(text)",
        mapLabel: "Map of \(count) pets",
        tileURL: "/tiles/{z}/{x}/{y}.png",
        visitorLatitude: variant % 2 == 0 ? "52.2297" : nil,
        visitorLongitude: variant % 2 == 0 ? "21.0122" : nil,
        rangeMeters: variant % 2 == 0 ? "15000" : nil,
        places: (0..<count).map { index in
            MapPlaceModel(
                card: card(index, text: text),
                thumbnailURL: index % 2 == 0 ? "/images/\(text).jpg?w=320" : nil,
                latitude: index == 1 ? nil : "52.2",
                longitude: index == 1 ? nil : "21.0",
                mapURL: index == 1 ? nil : "https://www.openstreetmap.org/?mlat=52.2&mlon=21.0"
            )
        },
        hasPlaces: count > 0,
        emptyMessage: "No pets match \(text)."
    )
}

@Test(arguments: [0, 1, 2, 3])
func map_page_matches_swift_mustache_byte_for_byte(variant: Int) async throws {
    for count in [0, 1, 5] {
        try await expectSameOutput(mapPage(places: count, variant: variant), "map")
        try await expectSameOutput(mapPage(places: count, variant: variant, text: nasty), "map")
    }
}

private func errorPage(status: Int, variant: Int, text: String = "Unable to load data") -> ErrorPageModel {
    ErrorPageModel(
        layout: layout(variant, text: text),
        status: status,
        heading: text,
        message: "\(text). Please try again later.",
        retryURL: variant % 2 == 0 ? "/pets?retry=1&x=2" : nil,
        listURL: "/pets",
        homeURL: "/"
    )
}

// MARK: Pages

@Test(arguments: [0, 1, 2, 3, 20])
func list_page_matches_swift_mustache_byte_for_byte(cards: Int) async throws {
    for variant in 0..<6 {
        try await expectSameOutput(listPage(cards: cards, variant: variant), "list")
        try await expectSameOutput(listPage(cards: cards, variant: variant, text: nasty), "list")
    }
}

@Test(arguments: [0, 1, 4, 20])
func landing_page_matches_swift_mustache_byte_for_byte(cards: Int) async throws {
    for variant in 0..<6 {
        try await expectSameOutput(landingPage(cards: cards, variant: variant), "landing")
        try await expectSameOutput(landingPage(cards: cards, variant: variant, text: nasty), "landing")
    }
}

@Test func details_page_matches_swift_mustache_byte_for_byte() async throws {
    for variant in 0..<12 {
        try await expectSameOutput(detailsPage(variant: variant), "details")
        try await expectSameOutput(detailsPage(variant: variant, text: nasty), "details")
        try await expectSameOutput(detailsPage(variant: variant, text: ""), "details")
    }
}

@Test func error_page_matches_swift_mustache_byte_for_byte() async throws {
    for (variant, status) in [400, 404, 405, 500, 502, 504].enumerated() {
        try await expectSameOutput(errorPage(status: status, variant: variant), "error")
        try await expectSameOutput(errorPage(status: status, variant: variant, text: nasty), "error")
    }
}

@Test func card_partial_matches_swift_mustache_byte_for_byte() async throws {
    for index in 0..<12 {
        try await expectSameOutput(card(index), "partials/card")
        try await expectSameOutput(card(index, text: nasty), "partials/card")
        try await expectSameOutput(card(index, text: ""), "partials/card")
    }
}

@Test func polish_templates_match_swift_mustache_byte_for_byte() async throws {
    // The Polish compile of the same templates (texts with diacritics filled in).
    let polish = try localizedTemplatesDirectory(.pl)
    for variant in 0..<4 {
        try await expectSameOutput(listPage(cards: 3, variant: variant, text: nasty), "list", directory: polish)
        try await expectSameOutput(landingPage(cards: 2, variant: variant), "landing", directory: polish)
        try await expectSameOutput(detailsPage(variant: variant), "details", directory: polish)
        try await expectSameOutput(errorPage(status: 404, variant: variant), "error", directory: polish)
    }
    let html = String(decoding: try compiled(listPage(cards: 1, variant: 1), "list", directory: polish), as: UTF8.self)
    #expect(html.contains(#"<html lang="pl">"#))
    #expect(html.contains("Wszystkie zwierzęta"))
}

@Test func every_template_renders_an_unrelated_value_like_swift_mustache() async throws {
    // Missing names everywhere: every lookup fails and every section takes its empty branch.
    let templates = try CompiledTemplates.load(directory: templatesDirectory)
    for name in templates.indexByName.keys.sorted() {
        try await expectSameOutput(["unrelated": 1] as [String: Any], name)
        try await expectSameOutput("just a string", name)
    }
}

// MARK: Hook, errors, escaping

/// A card that may bring its own finished partial output.
private struct PrerenderedCard: MustacheParent, PrerenderedPartial {
    let card: CardModel
    let bytes: [UInt8]?

    func child(named name: String) -> Any? { card.child(named: name) }
    func prerendered(partial name: String) -> [UInt8]? { name == "partials/card" ? bytes : nil }
}

/// A list page whose cards are `PrerenderedCard`s.
private struct ListWithPrerenderedCards: MustacheParent {
    let page: ListPageModel
    let cards: [PrerenderedCard]

    func child(named name: String) -> Any? { name == "cards" ? cards : page.child(named: name) }
}

@Test func prerendered_partial_bytes_replace_the_partial_verbatim() async throws {
    let page = listPage(cards: 3, variant: 1, text: nasty)
    let cards = (0..<3).map { card($0, text: nasty) }
    let marker = Array("<!-- prerendered card 0 & <raw> -->\n".utf8)
    let model = ListWithPrerenderedCards(
        page: page,
        cards: [
            PrerenderedCard(card: cards[0], bytes: marker),
            PrerenderedCard(card: cards[1], bytes: nil),
            PrerenderedCard(card: cards[2], bytes: nil),
        ]
    )
    let actual = String(decoding: try compiled(model, "list"), as: UTF8.self)
    // Expected: swift-mustache's page with card 0's partial output swapped for the marker.
    let normal = String(decoding: try await reference(model, "list"), as: UTF8.self)
    let card0 = String(decoding: try await reference(cards[0], "partials/card"), as: UTF8.self)
    let range = try #require(normal.range(of: card0))
    #expect(actual == normal.replacingCharacters(in: range, with: String(decoding: marker, as: UTF8.self)))
    #expect(actual.contains(String(decoding: try await reference(cards[1], "partials/card"), as: UTF8.self)))
}

@Test func rendered_cards_in_a_list_page_are_written_verbatim() async throws {
    // The page models' own prerendered card (RenderedCard) next to ordinary CardModels.
    let plain = listPage(cards: 3, variant: 2)
    let marker = Array("<article data-prerendered=\"1\">&amp;</article>\n".utf8)
    var cards: [any CardView] = (0..<3).map { card($0) }
    cards[1] = RenderedCard(html: marker)
    let page = ListPageModel(
        layout: plain.layout,
        banner: plain.banner,
        staleNotice: plain.staleNotice,
        heading: plain.heading,
        resultSummary: plain.resultSummary,
        mapURL: plain.mapURL,
        cards: cards,
        hasCards: true,
        emptyMessage: plain.emptyMessage,
        clearFiltersURL: plain.clearFiltersURL,
        statusOptions: plain.statusOptions,
        speciesOptions: plain.speciesOptions,
        sortOptions: plain.sortOptions,
        hiddenFields: plain.hiddenFields,
        pagination: plain.pagination
    )
    let actual = String(decoding: try compiled(page, "list"), as: UTF8.self)
    let normal = String(decoding: try await reference(plain, "list"), as: UTF8.self)
    let card1 = String(decoding: try await reference(card(1), "partials/card"), as: UTF8.self)
    let range = try #require(normal.range(of: card1))
    #expect(actual == normal.replacingCharacters(in: range, with: String(decoding: marker, as: UTF8.self)))
}

@Test func quote_followed_by_a_combining_mark_is_still_escaped() throws {
    // Deliberate difference: swift-mustache escapes per Character, so `"` or `<` fused with a
    // following combining mark into one Character is left raw (and can end an attribute value).
    // Escaping bytes closes that hole; no other output differs.
    let folder = try temporaryTemplates(["page": "<a title=\"{{x}}\">"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = try compiled(["x": "\"\u{301} onmouseover=alert(1) <\u{301}b>"] as [String: Any], "page", directory: folder)
    #expect(String(decoding: bytes, as: UTF8.self) == "<a title=\"&quot;\u{301} onmouseover=alert(1) &lt;\u{301}b&gt;\">")
}

/// Writes `files` (name → text) into a fresh temporary folder and returns its path.
private func temporaryTemplates(_ files: [String: String]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compiled-templates-\(UUID().uuidString)")
    for (name, text) in files {
        let file = folder.appendingPathComponent(name + ".mustache")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
    return folder.path
}

@Test(arguments: [
    ("{{#a}}x{{/b}}", "unbalanced section"),
    ("line\n{{#a}}\nnever closed\n", "never closed"),
    ("{{/a}}", "closes nothing"),
    ("text {{name", "unclosed tag"),
    ("{{> missing}}", "unknown partial"),
    ("{{=<% %>=}}", "set-delimiter"),
    ("{{uppercased(name)}}", "transforms"),
])
func broken_template_fails_to_load_naming_the_file(source: String, problem: String) throws {
    let folder = try temporaryTemplates(["fine": "{{x}}", "nested/broken": source])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let error = try #require(throws: CompiledTemplates.LoadError.self) { try CompiledTemplates.load(directory: folder) }
    #expect(error.file == "nested/broken.mustache")
    #expect(error.description.contains("nested/broken.mustache"))
    #expect(error.description.contains(problem))
}

@Test func variable_values_are_html_escaped() throws {
    let folder = try temporaryTemplates(["page": "<p>{{x}}</p>{{{x}}}{{&x}}"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = try compiled(["x": "<script>&\"'"] as [String: Any], "page", directory: folder)
    #expect(String(decoding: bytes, as: UTF8.self) == "<p>&lt;script&gt;&amp;&quot;&#39;</p><script>&\"'<script>&\"'")
    #expect(try CompiledTemplates.load(directory: folder).render(1, template: "nope") == nil)
}

/// A value that is not a MustacheParent: swift-mustache (and CompiledTemplates) read it through Mirror.
private struct Reflected {
    let title: String
    let note: String?
    let tags: [String]
}

/// Small templates covering the whitespace, lookup, truthiness and inheritance rules the pages
/// rely on (and some they may come to rely on), each compared with swift-mustache.
@Test func mustache_semantics_match_swift_mustache() async throws {
    let folder = try temporaryTemplates([
        "standalone":
            "a\n  {{#list}}\n  - {{.}}\n  {{/list}}\n {{^list}} none {{/list}}  \n{{! comment }}\n"
            + "  {{! standalone comment }}  \nend {{! inline }} x\n   ",
        "lookup": "{{a.b.c}}|{{#a}}{{b.c}}{{#b}}{{c}}{{top}}{{.c}}{{.top}}{{/b}}{{/a}}|{{.}}|{{}}|{{#n}}{{.}}{{/n}}|{{d}}{{e}}|{{missing.x}}",
        "truthy":
            "{{#t}}T{{/t}}{{#f}}F{{/f}}{{^f}}!F{{/f}}{{#empty}}E{{/empty}}{{^empty}}!E{{.}}{{/empty}}"
            + "{{#zero}}Z{{.}}{{/zero}}{{#blank}}B{{/blank}}{{^none}}N{{/none}}{{#none}}n{{/none}}",
        "indented": "<ul>\n  {{> item}}\n    {{>item}}\n</ul>\n{{#list}}\n  {{> item}}\n{{/list}}",
        "item": "<li>{{x}}</li>\n{{#list}}\n<i>{{.}}</i>\n{{/list}}\n",
        "base": "<h>{{$title}}Default{{/title}}</h>\n  {{$body}}\n  default body\n  {{/body}}\nfoot\n",
        "child": "{{<base}}\n{{$title}}T {{x}}{{/title}}\nignored text\n    {{$body}}\n    one\n      two {{x}}\n    {{/body}}\n{{/base}}\n",
        "child2": "before {{<base}}{{$body}}B{{/body}}{{/base}} after\n",
        "grand": "{{<child}}\n{{$title}}Grand {{x}}{{/title}}\n{{/child}}\n",
        "mirror": "{{#plain}}{{title}}|{{note}}|{{^note}}no note{{/note}}|{{#tags}}<{{.}}>{{/tags}}{{/plain}}|{{plain.title}}",
        "numbers":
            "{{int}} {{double}} {{bool}} {{sub}} {{opt}} {{{raw}}} {{nilInAny}} {{#nilInAny}}shown{{/nilInAny}}{{^nilInAny}}hidden{{/nilInAny}}",
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let context: [String: Any] = [
        "list": ["one", "<two>", "three"], "a": ["b": ["c": "C&"]], "top": "TOP", "n": 5, "d": "", "e": "x\r\ny",
        "t": true, "f": false, "empty": [String](), "zero": 0, "blank": "", "x": "X<", "int": 42, "double": 1.5,
        "bool": false, "sub": Substring("sub'"), "plain": Reflected(title: "T&", note: nil, tags: ["a", "b"]), "opt": String?.some("opt\"") as Any,
        "nilInAny": String?.none as Any, "raw": "<b>",
    ]
    for name in ["standalone", "lookup", "truthy", "indented", "item", "base", "child", "child2", "grand", "mirror", "numbers"] {
        try await expectSameOutput(context, name, directory: folder)
    }
}
