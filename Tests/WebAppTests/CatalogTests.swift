import CompiledTemplates
import Foundation
import MicroHTTP
import PetDomain
import Testing

@testable import WebApp

/// The repository's templates folder.
let sourceTemplatesDirectory = repositoryRoot.appendingPathComponent("Templates").path

/// One message catalog per language (docs/languages.md), complete in both, and templates without words of their own.
@Suite("Message catalogs")
struct CatalogTests {
    static let catalogFolder = sourceTemplatesDirectory + "/locales"

    static func catalog(_ language: Language) throws -> MessageCatalog {
        let file = "\(language.rawValue).messages"
        return try MessageCatalog.parse(try String(contentsOfFile: catalogFolder + "/" + file, encoding: .utf8), file: file)
    }

    /// Every `*.mustache` below Templates/, by relative path.
    static func templates() throws -> [(path: String, source: String)] {
        var found: [(String, String)] = []
        let enumerator = try #require(FileManager().enumerator(atPath: sourceTemplatesDirectory))
        for case let path as String in enumerator where path.hasSuffix(".mustache") {
            found.append((path, try String(contentsOfFile: sourceTemplatesDirectory + "/" + path, encoding: .utf8)))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    @Test func both_catalogs_hold_the_same_keys_and_every_key_the_server_and_templates_name() throws {
        let english = try Self.catalog(.en)
        let polish = try Self.catalog(.pl)
        #expect(english.keys.subtracting(polish.keys).sorted() == [], "missing in Polish")
        #expect(polish.keys.subtracting(english.keys).sorted() == [], "missing in English")
        let templateKeys = Set(try Self.templates().flatMap { TemplateLocalization.keys(in: $0.source) })
        let codeKeys = Set(TextKey.allCases.map(\.rawValue))
        for catalog in [english, polish] {
            #expect(templateKeys.subtracting(catalog.texts.keys).sorted() == [], "template keys without a plain text")
            #expect(codeKeys.subtracting(catalog.keys).sorted() == [], "server keys without a text")
            // And nothing unused: a key is named by a template or by the server.
            #expect(catalog.keys.subtracting(templateKeys).subtracting(codeKeys).sorted() == [], "unused keys")
        }
        #expect(english.problems(rules: .english, required: TextKey.allCases.map { ($0.rawValue, $0.isCounted) }) == [])
        #expect(polish.problems(rules: .polish, required: TextKey.allCases.map { ($0.rawValue, $0.isCounted) }) == [])
    }

    @Test func a_missing_key_or_plural_form_is_reported() throws {
        let partial = try MessageCatalog.parse("age[one] = {count} rok\nage[few] = {count} lata\n", file: "pl.messages")
        let problems = partial.problems(rules: .polish, required: [("age", true), ("sex.male", false)])
        #expect(problems.contains("'age' has no [many] form"))
        #expect(problems.contains("'age' has no [other] form"))
        #expect(problems.contains("text 'sex.male' is missing"))
        #expect(throws: MessageCatalog.LoadError.self) { try MessageCatalog.parse("age[dual] = x", file: "x") }
        #expect(throws: MessageCatalog.LoadError.self) { try MessageCatalog.parse("no equals sign", file: "x") }
        #expect(throws: MessageCatalog.LoadError.self) { try MessageCatalog.parse("a = {{b}}", file: "x") }
    }

    @Test func a_catalog_folder_whose_languages_differ_stops_startup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("locales"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let english = try String(contentsOfFile: Self.catalogFolder + "/en.messages", encoding: .utf8)
        let polish = try String(contentsOfFile: Self.catalogFolder + "/pl.messages", encoding: .utf8)
        try Data((english + "\nextra.key = Only in English\n").utf8).write(to: folder.appendingPathComponent("locales/en.messages"))
        try Data(polish.utf8).write(to: folder.appendingPathComponent("locales/pl.messages"))
        let error = try #require(throws: MessageCatalog.LoadError.self) { try SiteTexts.load(directory: folder.path) }
        #expect(error.description.contains("extra.key"))
    }

    /// Text a template shows, with its tags and markup taken out: letters left there are words
    /// no catalog translates.
    static func untranslatedText(_ source: String) -> [String] {
        var text = source
        // Mustache tags, text tags included, then comments and scripts.
        text = text.replacingOccurrences(of: #"\{\{[^}]*\}\}"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"<!--.*?-->"#, with: " ", options: .regularExpression)
        var found: [String] = []
        // Attributes people read (or hear): their values must be tags only.
        let readable = #"\b(alt|title|aria-label|placeholder|content|value|data-share-copied|data-share-prompt|data-text-[a-z-]+)="([^"]*)""#
        // A constant pattern: a mistake in it fails every test that reaches this line.
        // swift-format-ignore: NeverUseForceTry
        let regex = try! NSRegularExpression(pattern: readable)
        let whole = NSRange(text.startIndex..., in: text)
        for match in regex.matches(in: text, range: whole) {
            guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { continue }
            // `content` of meta tags that are not texts (viewport, colours) holds words of CSS, not of people.
            if text[name] == "content", ["width=device-width, initial-scale=1", "light", "#0f766e"].contains(String(text[value])) { continue }
            if text[value].contains(where: \.isLetter) { found.append("\(text[name])=\"\(text[value])\"") }
        }
        let withoutTags = text.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
        for word in withoutTags.split(whereSeparator: \.isWhitespace) where word.contains(where: \.isLetter) {
            found.append(String(word))
        }
        return found
    }

    @Test func templates_hold_no_untranslated_words() throws {
        for (path, source) in try Self.templates() {
            #expect(Self.untranslatedText(source) == [], "\(path)")
        }
    }

    @Test func the_literal_check_finds_words_in_text_and_readable_attributes() {
        #expect(Self.untranslatedText(#"<p>{{t:a}} Hello</p>"#) == ["Hello"])
        #expect(Self.untranslatedText(#"<img alt="Photo" src="/x.png"><a aria-label="{{t:b}}">{{c}}</a>"#) == [#"alt="Photo""#])
        #expect(Self.untranslatedText(#"<p class="word">{{t:a}} → {{b}}</p>"#) == [])
    }
}

/// Polish formats and plural rules; English exactly as `Format` writes it.
@Suite("Polish and English formats")
struct LocalizedFormatTests {
    static let texts = (try? SiteTexts.load(directory: sourceTemplatesDirectory))

    static func polish() throws -> Texts { try #require(texts)[.pl] }
    static func english() throws -> Texts { try #require(texts)[.en] }

    /// `writeDistance` (a located page's cards and feed entries) writes exactly the escaped
    /// `distance(km:)`, in HTML and in XML, in both languages, for distances on Earth, rounding
    /// edges and the values without a distance.
    @Test func written_distances_are_the_escaped_distance_texts() throws {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [0, 0.04, 0.05, 0.95, 0.99, 1, 9.95, 14.999, 15, 99.95, 12_345.65, 20_037.5, -1, .infinity, .nan, 1e300]
        let values = edges + (0..<2_000).map { _ in Double.random(in: 0...20_100, using: &generator) }
        for texts in [try Self.polish(), try Self.english()] {
            for km in values {
                var written: [UInt8] = []
                texts.writeDistance(km: km, into: &written)
                var html: [UInt8] = []
                HTMLText.escape(texts.distance(km: km), into: &html)
                var xml: [UInt8] = []
                XMLText.escape(texts.distance(km: km), into: &xml)
                #expect(written == html, "\(texts.language) \(km)")
                #expect(written == xml, "\(texts.language) \(km)")
            }
        }
    }

    @Test(arguments: [
        (1, "1 rok"), (2, "2 lata"), (5, "5 lat"), (12, "12 lat"), (22, "22 lata"),
        (3, "3 lata"), (4, "4 lata"), (11, "11 lat"), (13, "13 lat"), (14, "14 lat"), (21, "21 lat"),
        (24, "24 lata"), (25, "25 lat"), (102, "102 lata"), (112, "112 lat"), (0, "poniżej 1 roku"),
    ])
    func polish_ages_follow_cldr_plural_rules(years: Int, expected: String) throws {
        #expect(try Self.polish().age(years) == expected)
    }

    @Test func polish_plural_categories_follow_cldr() {
        let table: [(Int, PluralCategory)] = [
            (0, .many), (1, .one), (2, .few), (4, .few), (5, .many), (11, .many), (12, .many),
            (14, .many), (21, .many), (22, .few), (101, .many), (104, .few), (112, .many), (1000, .many),
        ]
        for (count, category) in table { #expect(PluralRules.polish.category(count) == category, "\(count)") }
        #expect(PluralRules.english.category(1) == .one)
        #expect(PluralRules.english.category(0) == .other)
        #expect(PluralRules.english.category(21) == .other)
    }

    @Test func every_counted_text_uses_the_same_rules() throws {
        let polish = try Self.polish()
        #expect(polish.counted(.listCount, 1) == "1 zwierzę")
        #expect(polish.counted(.listCount, 3) == "3 zwierzęta")
        #expect(polish.counted(.listCount, 5) == "5 zwierząt")
        #expect(polish.counted(.listCount, 22) == "22 zwierzęta")
        #expect(polish.counted(.staleMinutes, 1) == "1 minutę temu")
        #expect(polish.counted(.staleMinutes, 3) == "3 minuty temu")
        #expect(polish.counted(.staleMinutes, 12) == "12 minut temu")
        #expect(polish.counted(.listWithin, 15, ("results", "2 zwierzęta")) == "2 zwierzęta w promieniu 15 km od Ciebie")
        let english = try Self.english()
        #expect(english.counted(.listCount, 1) == "1 pet")
        #expect(english.counted(.listCount, 0) == "0 pets")
        #expect(english.counted(.staleMinutes, 4) == "4 minutes ago")
    }

    @Test func polish_dates_numbers_and_words() throws {
        let polish = try Self.polish()
        #expect(polish.date(try #require(CalendarDate(year: 2025, month: 11, day: 18))) == "18 lis 2025")
        #expect(polish.date(try #require(CalendarDate(year: 2025, month: 5, day: 5))) == "5 maj 2025")
        #expect(polish.date(try #require(CalendarDate(year: 2024, month: 1, day: 31))) == "31 sty 2024")
        #expect(polish.distance(km: 2.34) == "2,3 km stąd")
        #expect(polish.distance(km: 0.35) == "0,4 km stąd")
        #expect(polish.coordinate(try #require(Coordinate(latitude: 52.2297, longitude: 21.0122))) == "52,2297° N, 21,0122° E")
        #expect(polish.coordinate(try #require(Coordinate(latitude: -33.8688, longitude: -151.2093))) == "33,8688° S, 151,2093° W")
        #expect(polish.sex(.male) == "♂ Samiec")
        #expect(polish.sex(.female) == "♀ Samica")
        #expect(polish.reward(try #require(Reward(amount: 500, currency: "PLN"))) == "Nagroda 500 PLN")
        #expect(polish.status(.missing) == "ZAGINIONE")
        #expect(polish.species(.dog) == "Pies")
    }

    @Test func english_texts_are_exactly_todays_formats() throws {
        let english = try Self.english()
        for (year, month, day) in [(2025, 11, 18), (2025, 11, 5), (2024, 2, 29), (1999, 1, 1)] {
            let date = try #require(CalendarDate(year: year, month: month, day: day))
            #expect(english.date(date) == Format.date(date))
        }
        for km in [0.0, 0.04, 0.35, 2.25, 2.3, 9.95, 123.45, 20_000] {
            #expect(english.distance(km: km) == Format.distance(km: km))
        }
        for (latitude, longitude) in [(52.2297, 21.0122), (-33.86882, -151.20929), (-0.00001, 0.0)] {
            let point = try #require(Coordinate(latitude: latitude, longitude: longitude))
            #expect(english.coordinate(point) == Format.coordinate(point))
        }
        for years in [nil, -1, 0, 1, 2, 5, 12, 22] as [Int?] {
            #expect(english.age(years) == Format.age(years))
        }
        for sex in [Sex.male, .female, .unknown] { #expect(english.sex(sex) == Format.sex(sex)) }
        let reward = try #require(Reward(amount: Decimal(string: "1500.5")!, currency: "PLN"))
        #expect(english.reward(reward) == Format.rewardBadge(reward))
        for status in [AnnouncementStatus.missing, .found, .closed] { #expect(english.status(status) == status.label) }
        for species in Species.allCases { #expect(english.species(species) == species.displayName) }
    }
}

/// `Accept-Language` with its q-values picks the page language when the URL has no `lang`.
@Suite("Accept-Language negotiation")
struct LanguageNegotiationTests {
    @Test(
        arguments: [
            (nil, Language.en), ("", .en), ("pl", .pl), ("pl-PL", .pl), ("PL-pl", .pl), ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", .pl),
            ("en-US,en;q=0.9,pl;q=0.8", .en), ("en;q=0.5, pl;q=0.8", .pl), ("de-DE, pl;q=0.3", .pl), ("de, fr;q=0.9", .en),
            ("pl;q=0", .en), ("*", .en), ("*;q=0.5, pl", .pl), ("*, pl;q=0.5", .en), ("de, *;q=0.9", .en), ("en, pl", .en), ("pl, en", .pl),
            ("en;q=0.8, *;q=0.9", .en),
            ("pl;q=0.9, en;q=0.9", .pl), ("plx, pl-;q=0.1", .pl), ("plx", .en), ("pl;q=abc", .en), ("pl ; q=0.7 , en;q=0.6", .pl),
        ] as [(String?, Language)]
    )
    func accept_language_picks_the_heaviest_supported_language(header: String?, expected: Language) {
        #expect(Language.accepted(header) == expected)
    }

    /// Atom dates written by hand read as Foundation's ISO 8601 style writes them, and XML
    /// escaping drops what XML 1.0 cannot carry whether or not the bytes' quick check passes.
    @Test func atom_dates_and_xml_escaping_agree_with_the_slow_paths() {
        var state: UInt64 = 5
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = -11_676_096_000 + Int64(state >> 24) % (253_402_300_800 + 11_676_096_000)
            #expect(AtomDate.string(seconds) == Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601))
        }
        var xml: [UInt8] = []
        XMLText.escape("a\u{1}b\u{FFFE}c\u{FFFF}d\u{EF00}e<&>\t\n", into: &xml)
        #expect(String(decoding: xml, as: UTF8.self) == "abcd\u{EF00}e&lt;&amp;&gt;\t\n")
        xml = []
        XMLText.escape("Zaginiony pies: Łatka \u{7F}", into: &xml)
        #expect(String(decoding: xml, as: UTF8.self) == "Zaginiony pies: Łatka \u{7F}")
        // Random texts: the quick copy of plain bytes and the checked path give the slow path's bytes.
        let alphabet: [String] = [
            "a", "Ł", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r",
            "\u{1}", "\u{1F}", "\u{FFFE}", "\u{FFFF}", "\u{EF00}", "\u{FFFD}", "·", "🐕",
        ]
        for _ in 0..<3_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for index in 0..<Int(state >> 60) {
                text += alphabet[Int((state >> UInt64(4 * index % 56)) % UInt64(alphabet.count))]
            }
            let allowed = text.unicodeScalars.filter { scalar in
                switch scalar.value {
                case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
                default: false
                }
            }
            var expected: [UInt8] = []
            HTMLText.escape(String(String.UnicodeScalarView(allowed)), into: &expected)
            var written: [UInt8] = []
            XMLText.escape(text, into: &written)
            #expect(written == expected, "\(text.unicodeScalars.map(\.value))")
        }
    }
}
