import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain

/// Building query strings for links (application/x-www-form-urlencoded, UTF-8).
enum QueryString {
    /// `path?name=value&…`, leaving out empty values; just `path` when nothing is left.
    static func url(_ path: String, _ items: [(String, String?)]) -> String {
        var builder = Builder(path)
        for (name, value) in items { builder.add(name, value) }
        return builder.url
    }

    /// `path` with `location`'s link items (`VisitorLocation.linkItems`).
    static func url(_ path: String, _ location: VisitorLocation) -> String {
        var builder = Builder(path)
        builder.add(location)
        return builder.url
    }

    /// A link appended item by item into one string with room made once: the list's links (its page
    /// key, shape key, pager) are built several times for every located page, and arrays of
    /// items joined for each cost more than the rest of the URL's work (callgrind;
    /// docs/performance.md "Located pages").
    struct Builder {
        /// The URL's bytes: appending a byte is far cheaper than appending a string (callgrind).
        private var bytes: [UInt8] = []
        private var hasItems = false

        init(_ path: String) {
            bytes.reserveCapacity(path.utf8.count + 96)
            bytes.append(contentsOf: path.utf8)
        }

        var url: String { String(decoding: bytes, as: UTF8.self) }

        /// Appends `name=value`, both percent-encoded, unless `value` is nil or empty.
        mutating func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            bytes.append(hasItems ? UInt8(ascii: "&") : UInt8(ascii: "?"))
            URLText.appendEncoded(name, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            URLText.appendEncoded(value, to: &bytes)
            hasItems = true
        }

        /// Appends the items that carry `location` into links (`VisitorLocation.linkItems`).
        mutating func add(_ location: VisitorLocation) {
            location.forEachLinkItem { add($0, $1) }
        }
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
        var items: [(String, String?)] = []
        forEachLinkItem { items.append(($0, $1)) }
        return items
    }

    /// Calls `body` with each of `linkItems` in order, without making the array.
    @inline(__always)
    func forEachLinkItem(_ body: (_ name: String, _ value: String?) -> Void) {
        if let (latitude, longitude) = linkCoordinates {
            body("lat", latitude)
            body("lng", longitude)
            body("range", rangeGiven ? rangeKm.map(String.init) : nil)
        }
        if language.explicit { body("lang", language.language.rawValue) }
    }

    /// The `lat` and `lng` values of links (4 decimals), nil when not located.
    var linkCoordinates: (latitude: String, longitude: String)? {
        guard let origin else { return nil }
        return coordinateText ?? (URLText.fourDecimals(origin.latitude), URLText.fourDecimals(origin.longitude))
    }

    /// This location with the page-shell markers in place of its coordinates in links (see `PageShells`).
    private static let coordinateMarkers = (PageShells.marker(PageShells.Slot.latitude), PageShells.marker(PageShells.Slot.longitude))

    var withMarkedCoordinates: VisitorLocation {
        var copy = self
        copy.coordinateText = VisitorLocation.coordinateMarkers
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
