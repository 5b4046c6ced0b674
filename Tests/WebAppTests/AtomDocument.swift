import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An Atom feed read back with Foundation's XML parser (a real XML parser: text the server failed
/// to escape would change the tree or stop the parse), as far as the feed tests look at it.
struct AtomDocument {
    struct Link: Equatable {
        let rel: String
        let type: String?
        let href: String
    }

    struct Entry {
        var id = ""
        var title = ""
        var summary = ""
        var published = ""
        var updated = ""
        var point: String?
        var links: [Link] = []

        /// The `href` of the first link with `rel`.
        func link(_ rel: String) -> String? { links.first { $0.rel == rel }?.href }
        /// The announcement id at the end of the entry id (`tag:…:pets/{id}`).
        var petID: String { id.components(separatedBy: ":pets/").last?.removingPercentEncoding ?? "" }
    }

    var language: String?
    var id = ""
    var title = ""
    var updated = ""
    var links: [Link] = []
    var entries: [Entry] = []

    /// The `href` of the first feed-level link with `rel` (and `type`, when given).
    func link(_ rel: String, type: String? = nil) -> String? {
        links.first { $0.rel == rel && (type == nil || $0.type == type) }?.href
    }

    /// Parses `data`; nil when it is not well-formed XML.
    static func parse(_ data: Data) -> AtomDocument? {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        guard parser.parse() else { return nil }
        return reader.document
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var document = AtomDocument()
        private var entry: Entry?
        private var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            switch name {
            case "feed": document.language = attributes["xml:lang"]
            case "entry": entry = Entry()
            case "link":
                let link = Link(rel: attributes["rel"] ?? "alternate", type: attributes["type"], href: attributes["href"] ?? "")
                if entry != nil { entry?.links.append(link) } else { document.links.append(link) }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if var current = entry {
                switch name {
                case "id": current.id = text
                case "title": current.title = text
                case "summary": current.summary = text
                case "published": current.published = text
                case "updated": current.updated = text
                case "georss:point": current.point = text
                case "entry":
                    document.entries.append(current)
                    entry = nil
                    return
                default: break
                }
                entry = current
            } else {
                switch name {
                case "id": document.id = text
                case "title": document.title = text
                case "updated": document.updated = text
                default: break
                }
            }
        }
    }
}
