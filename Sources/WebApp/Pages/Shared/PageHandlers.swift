import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// The HTML pages (landing, list, map, details, poster; docs/upstream.md §4), answered from the snapshot.
///
/// Each page first parses its query into a normalized key (parameter order, unknown parameters and
/// coordinate digits beyond the 4 decimals the location script sends make no difference), then
/// looks for a page already rendered for that key from the same snapshot, and only then does any
/// domain work, so a warm page costs a lookup (docs/scaling.md).
///
/// Each page has its folder: `Pages/Landing`, `Pages/List`, `Pages/Map`, `Pages/Details`,
/// `Pages/Poster` (the matches page and the feeds in `Matches/` and `Feed/`), with its handler beside
/// its view model; what they share is here and in `Pages/Shared`.
struct PageHandlers: Sendable {
    let site: SiteContext
    let gateway: AnnouncementGateway

    /// The banner, whose links lead to the same (normalized) page without `location=denied`.
    func banner(_ location: VisitorLocation, sameURLWithoutDenied url: String) -> BannerModel? {
        guard location.denied else { return nil }
        let texts = site.renderer.texts(location.language)
        return BannerModel(
            title: texts(.bannerTitle),
            message: texts(.bannerMessage),
            tryAgainURL: url,
            dismissURL: url
        )
    }

    /// The notice of a page made from saved data in the page's language, nil for fresh data.
    func staleNotice<Value>(_ fetched: Fetched<Value>, _ location: VisitorLocation) -> String? {
        guard fetched.isStale else { return nil }
        let texts = site.renderer.texts(location.language)
        return texts(.staleNotice, ("age", Self.age(since: fetched.fetchedAt, now: site.days.date, texts: texts)))
    }

    /// "less than a minute ago", "1 minute ago", "4 minutes ago" / "4 minuty temu".
    static func age(since date: Date, now: Date, texts: Texts) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        return seconds < 60 ? texts(.staleJustNow) : texts.counted(.staleMinutes, seconds / 60)
    }

    /// The request's own path and query, for "Try again" links.
    static func sameURL(_ request: Request) -> String {
        QueryString.url(request.rawPath, keeping: request.query)
    }
}
