import Foundation
import PetDomain
import Testing

@testable import WebApp

/// A feed's head is written from parts made once per language and titles kept per search
/// (`FeedHeads`): it must be the head written whole, as it was before, for every language, filter,
/// point and range, the first time and once kept, with a base URL that needs escaping.
@Suite("Feed heads")
struct FeedHeadsTests {
    /// The head as it was written whole, per request: the reference.
    static func wholeHead(_ search: FeedSearch, texts: Texts, baseURL: String, authority: String, updated: String) -> [UInt8] {
        var head = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n".utf8)
        head += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:georss=\"http://www.georss.org/georss\" ".utf8
        head += "xml:lang=\"\(texts.language.rawValue)\">\n".utf8
        XMLText.element("id", search.id(authority: authority), into: &head)
        var title = search.filters.title(texts)
        if let origin = search.location.origin, let range = search.location.rangeKm {
            title = texts(.feedTitleNearby, ("title", title), ("range", String(range)), ("point", texts.coordinate(origin)))
        }
        XMLText.element("title", texts(.pageTitle, ("title", title)), into: &head)
        XMLText.link(rel: "self", type: "application/atom+xml", href: baseURL + search.path, into: &head)
        XMLText.link(rel: "alternate", type: "text/html", href: baseURL + search.listPath, into: &head)
        XMLText.element("updated", updated, into: &head)
        head += "<author>".utf8
        XMLText.element("name", texts(.feedAuthor), into: &head)
        head += "</author>\n".utf8
        return head
    }

    @Test func heads_from_kept_parts_are_the_heads_written_whole() throws {
        let texts = try #require(LocalizedFormatTests.texts)
        let baseURL = "https://pets.example/a&b<c>"
        let authority = "pets.example"
        let heads = FeedHeads(baseURL: baseURL, authority: authority) { texts[$0] }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<600 {
            let language = Language.allCases.randomElement(using: &generator) ?? .en
            var location = VisitorLocation.unknown(PageLanguage(language: language, explicit: true))
            if round % 5 != 0 {
                location.origin = Coordinate(
                    latitude: Double.random(in: -89...89, using: &generator),
                    longitude: Double.random(in: -179...179, using: &generator)
                )
                location.rangeKm = [1, 5, 15, 50, 100, Int.random(in: 1...20_000, using: &generator)].randomElement(using: &generator)
            }
            let filters = ListFilters(
                status: Bool.random(using: &generator) ? AnnouncementStatus.allCases.randomElement(using: &generator) : nil,
                species: Bool.random(using: &generator) ? Species.allCases.randomElement(using: &generator) : nil,
                sort: .newest,
                page: 1
            )
            let search = FeedSearch(filters: filters, location: location)
            let updated = AtomDate.string(Int64.random(in: 0...4_000_000_000, using: &generator))
            let expected = Self.wholeHead(search, texts: texts[language], baseURL: baseURL, authority: authority, updated: updated)
            for time in ["first", "kept"] {
                var head: [UInt8] = []
                heads.write(search, updated: updated, into: &head)
                #expect(head == expected, "round \(round), \(time): \(String(decoding: head, as: UTF8.self))")
            }
        }
    }
}
