import Caching
import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// The page caches, held once for the site (`SiteContext.caches`): the response cache, page shells, the
/// card fragments, feed entries, matches and poster codes of the current snapshot, and the reuse of a
/// kept page (`cachedPage`) with the headers a kept answer carries (`prepared`).
final class PageCaches: Sendable {
    /// Whole answers reused for the same normalized URL over the same snapshot, and given by the
    /// server's hook for the targets that led to them (docs/caches.md).
    let responses: ResponseCache
    /// Cards of the current snapshot and day (`DayClock.reuseKey`), rendered once each.
    private let fragments = SnapshotMemo<CardFragments>()
    /// Located pages by shape, rendered once each with markers (they hold no upstream data).
    let shells: PageShells
    /// Atom entries of the current snapshot, written once per language (`/pets.atom`).
    let feedEntries: FeedEntries
    /// The cache policy of pages and API answers made from fresh data (`CachePolicy.shared`).
    let fresh: CachePolicy
    /// `fresh`'s and `CachePolicy.stale`'s fields (`CachePolicy.fields`), made once: every page made appends them.
    private let cacheFields: (fresh: [HTTPField], stale: [HTTPField])
    /// The possible matches of each report, found once per snapshot (docs/matching.md).
    let matchMemo = MatchMemo()
    /// The posters' QR codes, per share URL and snapshot.
    let posterCodes = PosterCodes()
    /// The day report ages are worded for; part of every reuse decision (`DayClock.reuseKey`).
    let days: DayClock

    init(configuration: AppConfiguration, days: DayClock, responses: ResponseCache) {
        self.days = days
        let budgets = CacheBudgets(configuration)
        self.responses = responses
        shells = PageShells(maxBytes: budgets.pageShells)
        fresh = CachePolicy.fresh(ttlSeconds: configuration.cacheTTLSeconds, staleMaxSeconds: configuration.staleMaxSeconds)
        cacheFields = (fresh.fields, CachePolicy.stale.fields)
        feedEntries = FeedEntries(baseURL: configuration.effectivePublicBaseURL)
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
        guard !snapshot.isStale else { return reply(try build(day), stale: true) }
        let reuse = DayClock.reuseKey(generation: snapshot.value.generation, day: day)
        if let kept = responses.cached(key, generation: reuse), let response = kept.response {
            // Kept: the same bytes are right for this exact URL while the snapshot is fresh and the
            // day has not changed, so the server may give them itself (`CachePolicy`); this spelling
            // of the URL was not answered by it yet. The policy is already written on the kept page
            // (`prepared`): only the server's keeping is added here.
            return reused(kept, response: response, request: request, snapshot: snapshot)
        }
        let made = prepared(try build(day), stale: false)
        guard let kept = responses.keep(made, for: key, generation: reuse), let response = kept.response else {
            return Reply(ConditionalGet.answer(made, request: request), cache: policy(made, stale: false))
        }
        // Its second sighting: kept with its forms, and the server gives it itself from the next
        // request on (one second-sighting rule, docs/caches.md).
        return reused(kept, response: response, request: request, snapshot: snapshot)
    }

    /// The reply of a page of the response cache, which the server may give again until the
    /// snapshot's TTL or the day ends (the pipeline indexes the request's target to `kept`).
    private func reused(_ kept: ResponseCache.Entry, response: Response, request: Request, snapshot: Fetched<Snapshot>) -> Reply {
        let cache = fresh.keptUntil(confirmedAt: snapshot.confirmedAt, endOfDay: days.endOfToday)
        var reply = Reply(ConditionalGet.answer(response, request: request), cache: cache, forms: kept.forms)
        reply.kept = kept
        return reply
    }

    /// A page or API answer made from the snapshot for this request only: under `fresh` (or
    /// `stale`) when a 200, `no-store` otherwise (the 304 is the pipeline's, `BodyCompression.answer`).
    func reply(_ response: Response, stale: Bool) -> Reply {
        Reply(prepared(response, stale: stale), cache: policy(response, stale: stale))
    }

    /// The policy of a page made from the snapshot: fresh or stale data for a 200, `no-store` for anything else.
    func policy(_ response: Response, stale: Bool) -> CachePolicy {
        response.status == .ok ? (stale ? .stale : fresh) : .noStore
    }

    /// A response with every header it keeps for all requests: ETag and cache policy for a 200
    /// (a stale copy must not be kept by caches once the upstream is back), `no-store` otherwise,
    /// and the security headers, so a kept page needs no header work per request.
    func prepared(_ response: Response, stale: Bool) -> Response {
        var response = response
        // A handler that knows its body's tag without reading it sets it (a feed folds its kept
        // entries' hashes: `EntityTag.Composite`); every other 200 is tagged by a hash of its body.
        var tagged = false
        if response.status == .ok, response.headers.first?.name == .contentType,
            response.headers.allSatisfy({ field in
                if field.name == .eTag { tagged = true }
                return field.name == .contentType || field.name == .contentLanguage || field.name == .vary
                    || field.name == .lastModified || field.name == .eTag
            })
        {
            // A page or feed as the renderer makes it (the common case, once per answer made): every
            // header appended in one go instead of a lookup per header (a feed, with its
            // Last-Modified, took the lookups: 12,000 instructions, callgrind), with room for the
            // two fields added on the way out (`Vary` by the compression step, the request id):
            // each growth of the fields copied them all.
            // The same fields as the header step's (`AnswerHeaders.finish`), which then finds them all.
            response.headers.reserveCapacity(response.headers.count + 3 + SecurityHeaders.all.count + 2)
            if !tagged { response.headers.append(HTTPField(name: .eTag, value: ConditionalGet.etag(for: response.body))) }
            response.headers.append(contentsOf: stale ? cacheFields.stale : cacheFields.fresh)
            response.headers.append(contentsOf: SecurityHeaders.all)
            return response
        }
        AnswerHeaders.finish(&response, cache: policy(response, stale: stale))
        return response
    }

    /// Lets go of what is kept for snapshot generations before `generation`, which a new snapshot
    /// replaces (`AnnouncementGateway.whenReplaced`): the cards, the feed entries and the matches
    /// (whose profiles hold the whole old snapshot) and the poster codes, and keeps none
    /// for those generations from now on (a request still on the old snapshot renders its own).
    func retire(below generation: Int) {
        fragments.retire(below: DayClock.reuseKey(generation: generation, day: 0))
        feedEntries.retire(below: generation)
        matchMemo.retire(below: generation)
        posterCodes.retire(below: generation)
    }

    /// What the pages of `snapshot` need of each item, made while the snapshot is (`AnnouncementGateway.whenPreparing`,
    /// on its low-priority thread): the cards of the held snapshot's unchanged items carried over, and the located
    /// cards of every other item made in each of `languages` (docs/performance.md "Steady speed"). The closure
    /// returned puts them in place just before the snapshot replaces the held one.
    func prepare(_ snapshot: Snapshot, renderer: PageRenderer, languages: [Language]) -> @Sendable () -> Void {
        let day = days.today
        let generation = DayClock.reuseKey(generation: snapshot.generation, day: day)
        let count = snapshot.index.count
        let old: CardFragments? = fragments.withKept { _, kept in kept }
        let cards: CardFragments
        if let old, let predecessor = snapshot.predecessor, old.generation == DayClock.reuseKey(generation: predecessor, day: day),
            old.day == day
        {
            cards = CardFragments(succeeding: old, generation: generation, day: day, carried: snapshot.carried)
        } else {
            cards = CardFragments(generation: generation, day: day, count: count)
        }
        for language in languages {
            let texts = renderer.texts(PageLanguage(language: language, explicit: false))
            cards.makeLocated(snapshot.index.items, texts: texts) { renderer.render($0, template: "partials/card", language: language) ?? [] }
        }
        let entries = feedEntries.prepare(snapshot)
        let profiles = matchMemo.prepare(snapshot)
        return { [fragments] in
            fragments.keep(cards, for: generation)
            entries()
            profiles()
        }
    }

    /// The HTML of each card of one index page for this visitor (card fragments of the snapshot),
    /// rendered by `renderer` when not kept yet.
    /// Cards say how old each report is on `day`, so they are kept per snapshot generation and day.
    func cardHTML(
        _ found: IndexPage,
        location: VisitorLocation,
        generation snapshotGeneration: Int,
        day: Int,
        renderer: PageRenderer,
        keep: Bool = true
    ) -> CardSet {
        let generation = DayClock.reuseKey(generation: snapshotGeneration, day: day)
        let texts = renderer.texts(location.language)
        let language = location.language.language
        let render: (CardModel) -> [UInt8] = { renderer.render($0, template: "partials/card", language: language) ?? [] }
        // Kept cards are by position in the listed index; another index's page (the reunited pets) is made whole.
        guard keep else {
            return CardSet(whole: found.items.map { render($0.card(origin: location.origin, location: location, texts: texts, day: day)) })
        }
        let cards = fragments.keptValue(for: generation) { CardFragments(generation: generation, day: day, count: found.all.count) }
        guard let cards else {
            // A request still on an older or replaced snapshot than the kept cards: render its cards whole.
            return CardSet(whole: found.items.map { render($0.card(origin: location.origin, location: location, texts: texts, day: day)) })
        }
        guard location.origin != nil else {
            return cards.plainCards(found, language: location.language, texts: texts, render: render)
        }
        return cards.locatedCards(
            found,
            linkQuery: QueryString.url("", location),
            texts: texts,
            render: render
        )
    }
}
