import Foundation
import MicroHTTP
import PetDomain

/// The layout every page is wrapped in (`LayoutModel`: titles, share tags, navigation, the language
/// switch and its `hreflang` alternates) and the site's own links: a page's URL in its language, the
/// same page in another language, a photo's absolute URL for share tags. Held once for the site
/// (`SiteContext.layout`).
struct LayoutBuilder: Sendable {
    /// The absolute base for canonical and share URLs, without trailing slash.
    let baseURL: String

    /// The layout model for a page (`site.layout(title: …)`). `pageURL` writes this page's URL for a visitor state (its
    /// location and language), for the language switch and the `hreflang` alternates.
    func callAsFunction(
        title: String,
        description: String,
        canonicalPath: String?,
        ogImage: String? = nil,
        ogType: String = "website",
        location: VisitorLocation,
        pageURL: (VisitorLocation) -> String,
        isHome: Bool = false,
        isList: Bool = false,
        isMap: Bool = false,
        hasMap: Bool = false
    ) -> LayoutModel {
        let language = location.language
        let english = pageURL(location.with(PageLanguage(language: .en, explicit: true)))
        let polish = pageURL(location.with(PageLanguage(language: .pl, explicit: true)))
        let unchosen = pageURL(location.with(.standard))
        return LayoutModel(
            pageTitle: title,
            metaDescription: description,
            canonicalURL: canonicalPath.map { baseURL + LayoutBuilder.withLanguage($0, language) },
            ogTitle: title,
            ogDescription: description,
            ogImage: ogImage,
            ogType: ogType,
            twitterCard: ogImage == nil ? "summary" : "summary_large_image",
            homeURL: QueryString.url(Route.landing.path, location.linkItems),
            listURL: QueryString.url(Route.list.path, location.linkItems),
            mapURL: QueryString.url(Route.map.path, location.linkItems),
            isHome: isHome,
            isList: isList,
            isMap: isMap,
            hasMap: hasMap,
            locationState: location.origin != nil ? "known" : (location.denied ? "denied" : "unknown"),
            englishURL: english,
            polishURL: polish,
            isEnglish: language.language == .en,
            isPolish: language.language == .pl,
            alternateEnglishURL: baseURL + english,
            alternatePolishURL: baseURL + polish,
            alternateDefaultURL: baseURL + unchosen,
            reportURL: QueryString.url(Route.report.path, location.linkItems),
            reportFoundURL: QueryString.url(Route.report.path, [("status", "found")] + location.linkItems)
        )
    }

    /// `path` with `lang` when the page is not in the default language or the URL chose it: the
    /// canonical and share URL of a Polish page opens it in Polish for whoever follows it.
    static func withLanguage(_ path: String, _ language: PageLanguage) -> String {
        guard language.explicit || language.language != .en else { return path }
        // By bytes: Foundation's `contains` of a string cost 10,000 instructions (callgrind).
        return path + (path.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + "lang=" + language.language.rawValue
    }

    /// Writes the request's own path and query (without `lang`) for a visitor state: its page in
    /// another language.
    static func sameURL(_ request: Request) -> @Sendable (VisitorLocation) -> String {
        let kept = request.query.items.filter { $0.name != "lang" }.map { ($0.name, Optional($0.value)) }
        let path = request.rawPath
        return { location in QueryString.url(path, kept + location.language.linkItems) }
    }

    /// An absolute photo URL for share tags: the 1200-wide variant of an upstream photo.
    func absolutePhotoURL(_ photo: Photo?) -> String? {
        guard let url = PhotoLinks.share(photo) else { return nil }
        return url.hasPrefix("/") ? baseURL + url : url
    }
}
