import CompiledTemplates
import FastBytes
import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// `/pets`: the announcements that match the filters, 20 per page, nearest first when located.
extension PageHandlers {
    /// List: 20 per page, 15 km default radius when located.
    static let pageSize = 20
    static let listRangeKm = 15

    /// `GET /pets`.
    func list(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        let filters: ListFilters
        do {
            (location, filters) = try ListFilters.parseWithLocation(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.list.path, query: request.query))
        }
        let key = location.pageKey(filters.url(page: filters.page, location: location))
        return listPlan(request, requestID: requestID, location: location) { snapshot throws(HTTPError) in
            try site.caches.cachedPage(request, key: key, snapshot: snapshot) { (day: Int) throws(HTTPError) in
                try listPage(snapshot, filters: filters, location: location, day: day)
            }
        }
    }

    private func listPage(_ snapshot: Fetched<Snapshot>, filters: ListFilters, location: VisitorLocation, day: Int) throws(HTTPError) -> Response {
        let query = AnnouncementQuery(
            status: filters.status,
            species: filters.species,
            sort: filters.sort,
            origin: location.origin,
            rangeKm: location.rangeKm.map(Double.init)
        )
        let found = filters.index(of: snapshot.value).page(query, offset: (filters.page - 1) * PageHandlers.pageSize, limit: PageHandlers.pageSize)
        let pageCount = max(1, (found.total + PageHandlers.pageSize - 1) / PageHandlers.pageSize)
        let texts = site.renderer.texts(location.language)
        guard filters.page <= pageCount else {
            var error = HTTPError(404, .listNoSuchPage, ("page", String(filters.page)))
            error.count = pageCount
            throw error.on(location, retryURL: filters.url(page: 1, location: location), pageURL: { filters.url(page: filters.page, location: $0) })
        }
        let summary = filters.summary(count: found.total, location: location, texts: texts)
        let pageSummary = texts(.paginationSummary, ("page", String(filters.page)), ("count", String(pageCount)))
        let cards = site.caches.cardHTML(
            found,
            location: location,
            generation: snapshot.value.generation,
            day: day,
            renderer: site.renderer,
            keep: !filters.reunited
        )
        guard location.origin != nil, !snapshot.isStale else {
            let model = listModel(
                filters: filters,
                location: location,
                pageCount: pageCount,
                summary: summary,
                pageSummary: pageSummary,
                cards: cards.html.map(RenderedCard.init(html:)),
                stale: staleNotice(snapshot, location)
            )
            return site.renderer.page(model, template: "list", language: location.language)
        }
        // Located: the page of this shape, rendered once with markers, joined around this visitor's values.
        let marked = location.withMarkedCoordinates
        let shape =
            "list|\(location.pageKey(filters.url(page: filters.page, location: marked)))|\(cards.count)|\(pageCount > 1)|\(filters.page < pageCount)"
        let html = withShellWriter(location, cards: cards, summary: summary, pageSummary: pageSummary) { write in
            site.caches.shells.page(
                key: shape,
                render: {
                    let model = listModel(
                        filters: filters,
                        location: marked,
                        pageCount: pageCount,
                        summary: PageShells.marker(PageShells.Slot.summary),
                        pageSummary: PageShells.marker(PageShells.Slot.pageSummary),
                        cards: cards.indices.map(PageShells.markerCard),
                        stale: nil
                    )
                    return site.renderer.render(model, template: "list", language: location.language.language) ?? []
                },
                valueBytes: cards.byteCount,
                write: write
            )
        }
        return Response(status: 200, headers: PageRenderer.htmlHeaders(location.language), body: html)
    }

    private func listModel(
        filters: ListFilters,
        location: VisitorLocation,
        pageCount: Int,
        summary: String,
        pageSummary: String,
        cards: [any CardView],
        stale: String?
    ) -> ListPageModel {
        let texts = site.renderer.texts(location.language)
        let title = filters.title(texts)
        return ListPageModel(
            layout: site.layout(
                title: texts(.pageTitle, ("title", title)),
                description: texts(.listDescription),
                canonicalPath: filters.url(page: filters.page, location: .unknown),
                location: location,
                pageURL: { filters.url(page: filters.page, location: $0) },
                isList: true
            ).withFeed(filters: filters, location: location, texts: texts),
            banner: banner(location, sameURLWithoutDenied: filters.url(page: filters.page, location: location)),
            staleNotice: stale,
            heading: title,
            resultSummary: summary,
            mapURL: filters.url(.map, location: location),
            cards: cards,
            hasCards: !cards.isEmpty,
            emptyMessage: filters.isFiltered ? texts(.listEmptyFiltered) : texts(.petsEmpty),
            clearFiltersURL: filters.isFiltered ? QueryString.url(Route.list.path, location.linkItems) : nil,
            statusOptions: filters.statusOptions(texts),
            speciesOptions: filters.speciesOptions(texts),
            sortOptions: filters.sortOptions(located: location.origin != nil, texts: texts),
            hiddenFields: location.linkItems.compactMap { name, value in value.map { HiddenField(name: name, value: $0) } },
            pagination: pageCount > 1
                ? PaginationModel(
                    previousURL: filters.page > 1 ? filters.url(page: filters.page - 1, location: location) : nil,
                    nextURL: filters.page < pageCount ? filters.url(page: filters.page + 1, location: location) : nil,
                    summary: pageSummary
                ) : nil
        )
    }

    /// Calls `body` with the function that writes a located page shell's slots (`PageShells.Slot`),
    /// HTML-ready, for `location` (the landing page's shells too): coordinates, summaries and the
    /// cards (written through `CardSet.withWriter`, which pins what all the cards share once for the page).
    func withShellWriter<T>(
        _ location: VisitorLocation,
        cards: CardSet,
        summary: String = "",
        pageSummary: String = "",
        _ body: (_ write: (_ slot: Int, _ output: inout ByteCursor) -> Void) -> T
    ) -> T {
        let coordinates = location.linkCoordinates.map { (Array($0.latitude.utf8), Array($0.longitude.utf8)) } ?? ([], [])
        var escapedSummary: [UInt8] = []
        HTMLText.escape(summary, into: &escapedSummary)
        var escapedPageSummary: [UInt8] = []
        HTMLText.escape(pageSummary, into: &escapedPageSummary)
        return cards.withWriter { writer in
            body { slot, output in
                switch slot {
                case PageShells.Slot.latitude: output.append(array: coordinates.0)
                case PageShells.Slot.longitude: output.append(array: coordinates.1)
                case PageShells.Slot.summary: output.append(array: escapedSummary)
                case PageShells.Slot.pageSummary: output.append(array: escapedPageSummary)
                default:
                    let card = slot - PageShells.Slot.firstCard
                    if cards.indices.contains(card) { writer.write(card, into: &output) }
                }
            }
        }
    }

    /// A page made from the snapshot (the list, and the landing page, map and feed too): at once when
    /// it is in memory, else after the shared fetch (whose failure is the 502/504 page).
    func listPlan(
        _ request: Request,
        requestID: String,
        location: VisitorLocation,
        render: @escaping @Sendable (Fetched<Snapshot>) throws(HTTPError) -> Reply
    ) -> RoutePlan {
        .needs(.snapshot(gateway, requestID: requestID)) { fetched throws(HTTPError) in
            switch fetched {
            case .success(let snapshot):
                return try render(snapshot)
            case .failure(let error):
                // The list has no 404 of its own: an upstream that has no list is a bad gateway.
                throw HTTPError(error.visitorStatus == 404 ? 502 : error.visitorStatus, .errorUpstream)
                    .on(location, retryURL: Self.sameURL(request), pageURL: LayoutBuilder.sameURL(request))
            }
        }
    }
}
