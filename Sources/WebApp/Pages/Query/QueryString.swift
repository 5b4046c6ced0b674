import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain

/// Building query strings for links (application/x-www-form-urlencoded, UTF-8).
enum QueryString {
    /// `path?name=value&…`, leaving out empty values; just `path` when nothing is left.
    static func url(_ path: String, _ items: [(String, String?)]) -> String {
        // Appended into one string (no array of parts): links are built several times per page.
        var url = path
        var separator = "?"
        for (name, value) in items {
            guard let value, !value.isEmpty else { continue }
            url += separator
            url += URLText.encodeComponent(name)
            url += "="
            url += URLText.encodeComponent(value)
            separator = "&"
        }
        return url
    }

    /// `path?…` with every item of `query` as received (empty values too), re-encoded: the URL the
    /// visitor asked for, for "Try again" links, redirects and the rendered-page key.
    static func url(_ path: String, keeping query: QueryItems) -> String {
        guard !query.isEmpty else { return path }
        return path + "?"
            + query.items.map { "\(URLText.encodeComponent($0.name))=\(URLText.encodeComponent($0.value))" }
            .joined(separator: "&")
    }
}

extension VisitorLocation {
    /// The query items that carry the location into links: `lat`, `lng` (4 decimals) and an explicit
    /// `range`. `location=denied` is never carried, so the banner shows once (docs/upstream.md §4).
    /// Then `lang` when the URL chose the page language (a shared link opens in the language it was shared in).
    var linkItems: [(String, String?)] {
        guard let origin else { return language.linkItems }
        return [
            ("lat", coordinateText?.latitude ?? URLText.fourDecimals(origin.latitude)),
            ("lng", coordinateText?.longitude ?? URLText.fourDecimals(origin.longitude)),
            ("range", rangeGiven ? rangeKm.map(String.init) : nil),
        ] + language.linkItems
    }

    /// This location with the page-shell markers in place of its coordinates in links (see `PageShells`).
    var withMarkedCoordinates: VisitorLocation {
        var copy = self
        copy.coordinateText = (PageShells.marker(PageShells.Slot.latitude), PageShells.marker(PageShells.Slot.longitude))
        return copy
    }
}

extension VisitorLocation {
    /// The rendered-page key of `url`, the page's normalized URL built from parsed values (its
    /// location and language items included), for this visitor: the page language, the URL and
    /// whether the banner shows. The language leads because without `lang` the URL alone does not
    /// say it (`Accept-Language` chose it).
    func pageKey(_ url: String) -> String {
        let prefix = language.language == .pl ? "pl|" : "en|"
        return denied ? prefix + url + "#denied" : prefix + url
    }
}
