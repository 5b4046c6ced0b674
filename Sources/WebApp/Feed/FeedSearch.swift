import Foundation
import PetDomain

/// The search a feed follows in its one canonical form (docs/feeds.md "Identity"): every spelling
/// of the same search — parameters in any order, unknown ones, defaults written or not, coordinates
/// with more than 3 decimals — gives the same feed id, self link and page key, so the same search
/// is one subscription and one kept feed.
struct FeedSearch: Sendable {
    /// Status and species; the feed's order is always newest first, from its first entry.
    let filters: ListFilters
    /// The origin rounded to 3 decimals (about 110 m: finer than anyone's idea of "near me", coarse
    /// enough that a phone's jitter does not make a new subscription), the radius always stated,
    /// and the language always stated.
    let location: VisitorLocation
    /// `/pets.atom?…` of this search: the self link's path and the feed's page key. Made once: a
    /// feed request names it three times (key, id, self link) and each was a new URL.
    let path: String
    /// The `?…` part of `path` (empty for a search without parameters): the feed's and its list
    /// page's links differ only in the path before it, so the head escapes it once for both.
    let query: String

    /// At most this many entries, newest first: a reader polls often, so it sees every new one.
    static let maxEntries = 50
    /// The date in every tag URI (RFC 4151 `date`): when this site started minting these ids. It
    /// never changes, or every subscription would see its entries as new.
    static let tagDate = "2026-11-01"
    /// The feed's `updated` (and `Last-Modified`) when it has no entry: a fixed instant, so an
    /// empty feed is byte-for-byte stable; the tag date at midnight UTC.
    static let emptyUpdated = Date(timeIntervalSince1970: 1_793_491_200)

    /// The canonical search of a page's parsed filters and location.
    init(filters: ListFilters, location: VisitorLocation) {
        self.filters = ListFilters(status: filters.status, species: filters.species, sort: .newest, page: 1)
        var canonical = VisitorLocation.unknown(PageLanguage(language: location.language.language, explicit: true))
        if let origin = location.origin {
            let latitude = FeedSearch.threeDecimals(origin.latitude)
            let longitude = FeedSearch.threeDecimals(origin.longitude)
            canonical.origin = Coordinate(latitude: latitude, longitude: longitude)
            canonical.coordinateText = (URLText.fourDecimals(latitude), URLText.fourDecimals(longitude))
            canonical.rangeKm = location.rangeKm
            canonical.rangeGiven = true
        }
        self.location = canonical
        query = self.filters.url("", location: canonical)
        path = Route.feed.path + query
    }

    /// The list page of this search (the feed's `alternate`): `Route.list.path` and `query`, as
    /// `FeedHeads` writes it (FeedHeadsTests holds it to this).
    var listPath: String { filters.url(page: 1, location: location) }

    /// The feed id: `tag:{authority},2026-11-01:pets.atom?…` (RFC 4151).
    func id(authority: String) -> String {
        FeedSearch.idStart(authority: authority) + path.dropFirst()
    }

    /// The part of every feed's and entry's id before its path: `tag:{authority},2026-11-01:`.
    static func idStart(authority: String) -> String {
        "tag:\(authority),\(tagDate):"
    }

    /// An announcement's entry id, the same in every feed and language: `tag:{authority},2026-11-01:pets/{id}`.
    static func entryID(_ id: String, authority: String) -> String {
        idStart(authority: authority) + Route.details(id: id).path.dropFirst()
    }

    /// The tagging authority of the public base URL: its host name, without port (RFC 4151 allows
    /// a DNS name or an e-mail address only; an IPv6 literal becomes `localhost`).
    static func authority(ofBaseURL base: String) -> String {
        guard let host = URL(string: base)?.host, !host.isEmpty, !host.contains(":") else { return "localhost" }
        return host.lowercased()
    }

    /// The feed link a page puts in its head and beside its filters: the same search as the page
    /// (its radius stated, so the landing page's 10 km stays 10 km), in the page's language. Built
    /// from the page's own link values, so a located page shell's coordinate markers stay markers.
    static func link(filters: ListFilters, location: VisitorLocation) -> String {
        var stated = location.with(PageLanguage(language: location.language.language, explicit: true))
        stated.rangeGiven = location.origin != nil
        return ListFilters(status: filters.status, species: filters.species, sort: .newest, page: 1).url(.feed, location: stated)
    }

    /// `value` rounded to 3 decimals.
    static func threeDecimals(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
