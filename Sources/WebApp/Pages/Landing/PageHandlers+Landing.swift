import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// `/`: the newest announcements, near the visitor when located.
extension PageHandlers {
    /// Landing: the 5 newest announcements (within 10 km when located).
    static let landingCount = 5
    static let landingRangeKm = 10

    /// `GET /`.
    func landing(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request, defaultRangeKm: PageHandlers.landingRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.landing.path, query: request.query))
        }
        let key = location.pageKey(QueryString.url(Route.landing.path, location.linkItems))
        return listPlan(request, requestID: requestID, location: location) { snapshot in
            site.caches.cachedPage(request, key: key, snapshot: snapshot) { day in
                landingPage(snapshot, location: location, day: day)
            }
        }
    }

    private func landingPage(_ snapshot: Fetched<Snapshot>, location: VisitorLocation, day: Int) -> Response {
        let query = AnnouncementQuery(sort: .newest, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
        let found = snapshot.value.index.page(query, offset: 0, limit: PageHandlers.landingCount)
        let cards = site.caches.cardHTML(found, location: location, generation: snapshot.value.generation, day: day, renderer: site.renderer)
        guard location.origin != nil, !snapshot.isStale else {
            return site.renderer.page(
                landingModel(location: location, cards: cards.html.map(RenderedCard.init(html:)), stale: staleNotice(snapshot, location)),
                template: "landing",
                language: location.language
            )
        }
        let marked = location.withMarkedCoordinates
        let shape = "landing|\(location.pageKey(QueryString.url(Route.landing.path, marked.linkItems)))|\(cards.count)"
        let html = withShellWriter(location, cards: cards) { write in
            site.caches.shells.page(
                key: shape,
                render: {
                    site.renderer.render(
                        landingModel(location: marked, cards: cards.indices.map(PageShells.markerCard), stale: nil),
                        template: "landing",
                        language: location.language.language
                    ) ?? []
                },
                valueBytes: cards.byteCount,
                write: write
            )
        }
        return Response(status: 200, headers: PageRenderer.htmlHeaders(location.language), body: html)
    }

    private func landingModel(location: VisitorLocation, cards: [any CardView], stale: String?) -> LandingPageModel {
        let texts = site.renderer.texts(location.language)
        let range = location.rangeKm ?? PageHandlers.landingRangeKm
        return LandingPageModel(
            layout: site.layout(
                title: texts(.landingTitle),
                description: texts(.landingDescription),
                canonicalPath: Route.landing.path,
                location: location,
                pageURL: { QueryString.url(Route.landing.path, $0.linkItems) },
                isHome: true
            ).withFeed(filters: ListFilters(status: nil, species: nil, sort: .newest, page: 1), location: location, texts: texts),
            banner: banner(location, sameURLWithoutDenied: QueryString.url(Route.landing.path, location.language.linkItems)),
            staleNotice: stale,
            cards: cards,
            hasCards: !cards.isEmpty,
            emptyMessage: location.origin == nil ? texts(.petsEmpty) : texts.counted(.landingEmptyNearby, range),
            viewAllURL: QueryString.url(Route.list.path, location.linkItems),
            nearbyText: location.origin == nil ? nil : texts.counted(.landingNearby, range)
        )
    }
}
