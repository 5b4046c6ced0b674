import HTTPTypes
import MicroHTTP

/// A language the whole site speaks (docs/languages.md). English is the default.
enum Language: String, CaseIterable, Sendable {
    case en
    case pl

    /// Position in `allCases`, the index `negotiation` answers with.
    var index: Int { self == .en ? 0 : 1 }

    /// The `Accept-Language` negotiation the server (kept answers) and the pages share, so both
    /// pick the same language for a request.
    static let negotiation = LanguageNegotiation(languages: allCases.map(\.rawValue))

    /// The language `Accept-Language` asks for: Polish for any `pl*` range that outweighs English.
    static func accepted(_ header: String?) -> Language {
        allCases[negotiation.choose(header)]
    }
}

/// The language of one page and where it came from: `?lang=` (then every link and form keeps it,
/// so a shared link reproduces it) or `Accept-Language` (then links leave it out and the answer
/// says `Vary: Accept-Language`).
struct PageLanguage: Equatable, Sendable {
    let language: Language
    /// True when the URL's `lang` chose it.
    let explicit: Bool

    /// English from no header at all: pages made without a request (server errors, tests).
    static let standard = PageLanguage(language: .en, explicit: false)

    /// The query item links carry: `lang` only when the URL chose the language.
    var linkItems: [(String, String?)] {
        explicit ? [("lang", language.rawValue)] : []
    }

    /// The page language of `request`: its `lang` parameter, else its `Accept-Language`. An unknown
    /// or repeated `lang` throws (the 400 page, itself in the header's language).
    static func of(_ request: Request) throws(QueryProblem) -> PageLanguage {
        if let text = try VisitorLocation.single("lang", in: request.query) {
            guard let language = Language(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "lang", reason: .queryLang)
            }
            return PageLanguage(language: language, explicit: true)
        }
        return fromHeader(request)
    }

    /// The language `Accept-Language` gives `request`, ignoring its `lang` (for the page that
    /// says `lang` itself is wrong).
    static func fromHeader(_ request: Request) -> PageLanguage {
        // The first `Accept-Language` field only, as the server's kept answers read it
        // (libmicrohttpd's lookup gives the first): with two fields, a page chosen from both could
        // be kept under the other language's key and given to its visitors.
        let header = request.headers.first(where: { $0.name == .acceptLanguage })?.value
        return PageLanguage(language: Language.accepted(header), explicit: false)
    }
}
