import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain
import Synchronization

/// What every page handler shares: the renderer, the public base URL, the layout,
/// the rendered-page cache and the card fragments of the current snapshot.
final class SiteContext: Sendable {
    let configuration: AppConfiguration
    let renderer: PageRenderer
    /// Rendered pages reused for the same normalized URL over the same snapshot.
    let rendered: RenderedPages
    /// Cards of the current snapshot, rendered once each.
    private let fragments = Mutex<CardFragments?>(nil)
    /// The oldest snapshot generation whose cards may still be kept (`retire(below:)`).
    private let cardFloor = Atomic<Int>(Int.min)
    /// Located pages by shape, rendered once each with markers (they hold no upstream data).
    let shells: PageShells
    /// Atom entries of the current snapshot, written once per language (`/pets.atom`).
    let feedEntries: FeedEntries
    /// The cache policy of pages and API answers made from fresh data (`CachePolicy.shared`).
    let fresh: CachePolicy
    /// `fresh`'s and `CachePolicy.stale`'s `Cache-Control` fields, made once: every page made appends one.
    private let cacheFields: (fresh: HTTPField, stale: HTTPField)
    /// The possible matches of each report, found once per snapshot (docs/matching.md).
    let matchMemo = MatchMemo()
    /// The posters' QR codes, per share URL and snapshot.
    let posterCodes = PosterCodes()
    /// The day report ages are worded for; part of every reuse decision (`DayClock.reuseKey`).
    let days: DayClock

    init(configuration: AppConfiguration, renderer: PageRenderer, days: DayClock) {
        self.configuration = configuration
        self.renderer = renderer
        self.days = days
        let budgets = CacheBudgets(configuration)
        rendered = RenderedPages(maxBytes: budgets.renderedPages)
        shells = PageShells(maxBytes: budgets.pageShells)
        fresh = CachePolicy.fresh(ttlSeconds: configuration.cacheTTLSeconds, staleMaxSeconds: configuration.staleMaxSeconds)
        cacheFields = (fresh.field, CachePolicy.stale.field)
        feedEntries = FeedEntries(baseURL: configuration.effectivePublicBaseURL)
    }

    /// The absolute base for canonical and share URLs, without trailing slash.
    var baseURL: String { configuration.effectivePublicBaseURL }

    /// The texts of `language`.
    func texts(_ language: PageLanguage) -> Texts { renderer.texts[language.language] }

    /// The layout model for a page. `pageURL` writes this page's URL for a visitor state (its
    /// location and language), for the language switch and the `hreflang` alternates.
    func layout(
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
            canonicalURL: canonicalPath.map { baseURL + SiteContext.withLanguage($0, language) },
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
        return path + (path.contains("?") ? "&" : "?") + "lang=" + language.language.rawValue
    }

    /// The headers of an HTML page in `language`: `Content-Language`, and `Vary: Accept-Language`
    /// when that header chose the language (not the URL).
    static func htmlHeaders(_ language: PageLanguage) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .contentLanguage: language.language.rawValue]
        if !language.explicit { fields.append(HTTPField(name: .vary, value: "Accept-Language")) }
        return fields
    }

    /// Renders `model` with `template` in `language` as a 200 HTML response (not yet finished: see `finish`).
    func page(_ model: some ViewModel, template: String, language: PageLanguage, status: HTTPResponse.Status = .ok) -> Response {
        guard let html = renderer.render(model, template: template, language: language.language) else {
            return Response.text("Internal error\n", status: 500)
        }
        return Response(status: status, headers: SiteContext.htmlHeaders(language), body: html)
    }

    /// The page for `key` from `snapshot` (see the variant whose `build` takes the day).
    func cachedPage<Failure: Error>(
        _ request: Request,
        key: String,
        snapshot: Fetched<Snapshot>,
        build: () throws(Failure) -> Response
    ) throws(Failure) -> Reply {
        try cachedPage(request, key: key, snapshot: snapshot) { (_: Int) throws(Failure) in try build() }
    }

    /// The page for `key` from `snapshot`: reused when rendered from the same snapshot generation
    /// on the same day (`DayClock.reuseKey`: report ages say "today"), else made by `build` for
    /// that day and kept (a 200 from fresh data only), then answered conditionally. An error `build`
    /// throws (a page number past the last) is never kept. Generic over the error so that a `build`
    /// that cannot fail needs no `try`.
    func cachedPage<Failure: Error>(
        _ request: Request,
        key: String,
        snapshot: Fetched<Snapshot>,
        build: (_ day: Int) throws(Failure) -> Response
    ) throws(Failure) -> Reply {
        let day = days.today
        guard !snapshot.isStale else { return Reply(finish(try build(day), request: request, stale: true)) }
        let reuse = DayClock.reuseKey(generation: snapshot.value.generation, day: day)
        if let kept = rendered.cached(key, generation: reuse) {
            // Kept: the same bytes are right for this exact URL while the snapshot is fresh and the
            // day has not changed, so the server may give them itself (`CachePolicy`); this spelling
            // of the URL was not answered by it yet. The policy is already written on the kept page
            // (`prepared`): only the server's keeping is added here.
            var reply = Reply(ConditionalGet.answer(kept.response, request: request), forms: kept.forms)
            reply.cache = fresh.keptUntil(confirmedAt: snapshot.confirmedAt, endOfDay: days.endOfToday)
            return reply
        }
        let made = prepared(try build(day), stale: false)
        guard var kept = rendered.keep(made, for: key, generation: reuse) else { return Reply(ConditionalGet.answer(made, request: request)) }
        // Its second sighting: kept with its forms, and the server gives it itself from the next request on
        // (one second-sighting rule for the page cache and the kept answers, docs/caches.md).
        kept.response = ConditionalGet.answer(kept.response, request: request)
        kept.cache = fresh.keptUntil(confirmedAt: snapshot.confirmedAt, endOfDay: days.endOfToday)
        return kept
    }

    /// Cache headers (and 304) for a 200; `no-store` for anything else.
    func finish(_ response: Response, request: Request?, stale: Bool) -> Response {
        let ready = prepared(response, stale: stale)
        guard let request else { return ready }
        return ConditionalGet.answer(ready, request: request)
    }

    /// A response with every header it keeps for all requests: ETag and cache policy for a 200
    /// (a stale copy must not be kept by caches once the upstream is back), `no-store` otherwise,
    /// and the security headers, so a kept page needs no header work per request.
    func prepared(_ response: Response, stale: Bool) -> Response {
        var response = response
        if response.status == .ok, response.headers.first?.name == .contentType,
            response.headers.allSatisfy({ $0.name == .contentType || $0.name == .contentLanguage || $0.name == .vary })
        {
            // A page as the renderer makes it (the common case, once per page made): every header
            // appended in one go, with room for the request id, instead of a lookup per header.
            response.headers.reserveCapacity(3 + SecurityHeaders.all.count + 1)
            response.headers.append(HTTPField(name: .eTag, value: ConditionalGet.etag(for: response.body)))
            response.headers.append(stale ? cacheFields.stale : cacheFields.fresh)
            response.headers.append(contentsOf: SecurityHeaders.all)
            return response
        }
        if response.status == .ok {
            response.headers[.eTag] = ConditionalGet.etag(for: response.body)
            (stale ? CachePolicy.stale : fresh).apply(to: &response)
        } else {
            CachePolicy.noStore.apply(to: &response)
        }
        SecurityHeaders.apply(to: &response)
        return response
    }

    /// Lets go of what is kept for snapshot generations before `generation`, which a new snapshot
    /// replaces (`AnnouncementGateway.whenReplaced`): the cards, the feed entries and the matches
    /// (whose profiles hold the whole old snapshot), and keeps none
    /// for those generations from now on (a request still on the old snapshot renders its own).
    func retire(below generation: Int) {
        cardFloor.max(generation, ordering: .releasing)
        fragments.withLock { current in
            if let cards = current, cards.generation < DayClock.reuseKey(generation: generation, day: 0) { current = nil }
        }
        feedEntries.retire(below: generation)
        matchMemo.retire(below: generation)
    }

    /// The HTML of each card of one index page for this visitor (card fragments of the snapshot).
    /// Cards say how old each report is on `day`, so they are kept per snapshot generation and day.
    func cardHTML(_ found: IndexPage, location: VisitorLocation, generation snapshotGeneration: Int, day: Int) -> CardSet {
        let generation = DayClock.reuseKey(generation: snapshotGeneration, day: day)
        let texts = self.texts(location.language)
        let language = location.language.language
        let render: (CardModel) -> [UInt8] = { self.renderer.render($0, template: "partials/card", language: language) ?? [] }
        let cards = fragments.withLock { current -> CardFragments? in
            if let current, current.generation >= generation { return current }
            if snapshotGeneration < cardFloor.load(ordering: .acquiring) { return nil }
            let fresh = CardFragments(generation: generation, day: day, count: found.all.count)
            current = fresh
            return fresh
        }
        guard let cards, cards.generation == generation else {
            // A request still on an older snapshot than the kept cards: render its cards whole.
            return CardSet(whole: found.items.map { render($0.card(origin: location.origin, location: location, texts: texts, day: day)) })
        }
        guard location.origin != nil else {
            return cards.plainCards(found, language: location.language, texts: texts, render: render)
        }
        return cards.locatedCards(
            found,
            linkQuery: QueryString.url("", location.linkItems),
            texts: texts,
            render: render
        )
    }

    /// Writes the request's own path and query (without `lang`) for a visitor state: its page in
    /// another language.
    static func sameURL(_ request: Request) -> @Sendable (VisitorLocation) -> String {
        let kept = request.query.items.filter { $0.name != "lang" }.map { ($0.name, Optional($0.value)) }
        let path = request.rawPath
        return { location in QueryString.url(path, kept + location.language.linkItems) }
    }

    /// The public URL of a photo: our `/images/` proxy for upstream paths, the URL itself otherwise.
    static func publicURL(of photo: Photo) -> String {
        switch photo {
        case .upstreamPath(let path):
            var below = path.hasPrefix("/images/") ? String(path.dropFirst("/images/".count)) : path
            // A photoUrl is a URL path: its `%XX` are escapes. Decoded once here, so that
            // `Route.image` encodes the file name once and the proxy hands the upstream the very
            // path it named (`my%20cat.png`, `rabat%2541.png`), never an escape of an escape.
            // A malformed escape (`100%.png`) stays literal text.
            if below.utf8.contains(UInt8(ascii: "%")), let decoded = below.removingPercentEncoding { below = decoded }
            return Route.image(path: below).path
        case .absolute(let url):
            return url.absoluteString
        }
    }

    /// An absolute photo URL for share tags: the 1200-wide variant of an upstream photo.
    func absolutePhotoURL(_ photo: Photo?) -> String? {
        guard let url = PhotoLinks.share(photo) else { return nil }
        return url.hasPrefix("/") ? baseURL + url : url
    }
}
