import Foundation
import PetDomain
import Synchronization

/// A feed's head (everything before its entries), most of which is the same for every feed of a
/// language: its XML declaration and `<feed>` tag, the start of its id, the site's part of its links
/// and its author are made once per language; its title's texts around the searcher's point once per
/// search (language, filters, range). A located feed made all of it per request through string
/// joins and message lookups: a tenth of its instructions (callgrind, docs/feeds.md "Cost").
/// The bytes are the same: XML escaping is per character, so texts escaped apart are the whole
/// escaped (FeedTests compares every head with the one written whole).
final class FeedHeads: Sendable {
    private struct Parts {
        /// `<?xml …?>`, `<feed … xml:lang="…">` and `<id>tag:{authority},{date}:pets.atom`.
        let opening: [UInt8]
        /// `<link rel="self" type="application/atom+xml" href="{base}/pets.atom`.
        let selfLink: [UInt8]
        /// `"/>` and `<link rel="alternate" type="text/html" href="{base}/pets`.
        let alternateLink: [UInt8]
        /// `"/>`, then `<updated>`.
        let updated: [UInt8]
        /// `</updated>` and the `<author>`.
        let author: [UInt8]
    }

    private struct TitleKey: Hashable {
        let language: Language
        let status: AnnouncementStatus?
        let species: Species?
        let rangeKm: Int?
    }

    /// A title's texts between the places its point goes (one text for a title without a point).
    private struct Title {
        let pieces: [String]
    }

    /// Titles kept at most: a range is whatever a URL says, so the searches are not a closed set.
    static let titlesKept = 512
    /// Stands for the point while a title is made (a private-use character no text uses).
    private static let placeholder = "\u{F8FF}"

    private let parts: [Parts]
    private let titles = Mutex<[TitleKey: Title]>([:])
    private let texts: @Sendable (Language) -> Texts

    init(baseURL: String, authority: String, texts: @escaping @Sendable (Language) -> Texts) {
        self.texts = texts
        var base: [UInt8] = []
        XMLText.escape(baseURL, into: &base)
        var feedPath: [UInt8] = []
        var listPath: [UInt8] = []
        XMLText.escape(Route.feed.path, into: &feedPath)
        XMLText.escape(Route.list.path, into: &listPath)
        parts = Language.allCases.map { language in
            var opening = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n".utf8)
            opening += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:georss=\"http://www.georss.org/georss\" xml:lang=\"".utf8
            opening += "\(language.rawValue)\">\n<id>".utf8
            XMLText.escape(FeedSearch.idStart(authority: authority) + Route.feed.path.dropFirst(), into: &opening)
            var author = Array("</updated>\n<author>".utf8)
            XMLText.element("name", texts(language)(.feedAuthor), into: &author)
            author += "</author>\n".utf8
            return Parts(
                opening: opening,
                selfLink: Array("<link rel=\"self\" type=\"application/atom+xml\" href=\"".utf8) + base + feedPath,
                alternateLink: Array("\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"".utf8) + base + listPath,
                updated: Array("\"/>\n<updated>".utf8),
                author: author
            )
        }
    }

    /// Appends the head of the feed of `search`, updated at `updated` (`AtomDate`), to `head`.
    func write(_ search: FeedSearch, updated: String, into head: inout [UInt8]) {
        let language = search.location.language.language
        let parts = parts[language.index]
        // The id, the self link and the alternate link end in the same query: escaped once.
        var query: [UInt8] = []
        query.reserveCapacity(search.query.utf8.count + 16)
        XMLText.escape(search.query, into: &query)
        head += parts.opening
        head += query
        head += "</id>\n<title>".utf8
        let pieces = title(search).pieces
        XMLText.escape(pieces[0], into: &head)
        if pieces.count > 1, let origin = search.location.origin {
            let point = texts(language).coordinate(origin)
            for piece in pieces.dropFirst() {
                XMLText.escape(point, into: &head)
                XMLText.escape(piece, into: &head)
            }
        }
        head += "</title>\n".utf8
        head += parts.selfLink
        head += query
        head += parts.alternateLink
        head += query
        head += parts.updated
        XMLText.escape(updated, into: &head)
        head += parts.author
    }

    /// The title of `search`'s feed, kept per language, filters and range.
    private func title(_ search: FeedSearch) -> Title {
        let key = TitleKey(
            language: search.location.language.language,
            status: search.filters.status,
            species: search.filters.species,
            rangeKm: search.location.origin == nil ? nil : search.location.rangeKm
        )
        if let kept = titles.withLock({ $0[key] }) { return kept }
        let made = makeTitle(key)
        titles.withLock { titles in
            if titles.count < FeedHeads.titlesKept { titles[key] = made }
        }
        return made
    }

    /// "Missing dogs · PetSpot", or "Missing dogs within 15 km of 52.23° N, 21.012° E · PetSpot"
    /// cut where the point goes.
    private func makeTitle(_ key: TitleKey) -> Title {
        let texts = texts(key.language)
        let filters = ListFilters(status: key.status, species: key.species, sort: .newest, page: 1)
        let title = filters.title(texts)
        guard let range = key.rangeKm else { return Title(pieces: [texts(.pageTitle, ("title", title))]) }
        let near = texts(.feedTitleNearby, ("title", title), ("range", String(range)), ("point", FeedHeads.placeholder))
        return Title(pieces: texts(.pageTitle, ("title", near)).components(separatedBy: FeedHeads.placeholder))
    }
}
