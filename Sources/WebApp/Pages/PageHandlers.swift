import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

/// The HTML pages: landing, list and details (product-spec §4), answered from the snapshot.
///
/// Each page first parses its query into a normalized key (parameter order, unknown parameters and
/// coordinate digits beyond the 4 decimals the location script sends make no difference), then
/// looks for a page already rendered for that key from the same snapshot, and only then does any
/// domain work (issue 11 "O(1) warm path").
struct PageHandlers: Sendable {
    let site: SiteContext
    let gateway: AnnouncementGateway

    /// Landing: the 5 newest announcements (within 10 km when located).
    static let landingCount = 5
    static let landingRangeKm = 10
    /// List: 20 per page, 15 km default radius when located.
    static let pageSize = 20
    static let listRangeKm = 15

    // MARK: - Landing

    /// `GET /`.
    func landing(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request.query, defaultRangeKm: PageHandlers.landingRangeKm)
        } catch {
            return .answer(site.badQuery(error, path: Route.landing.path, query: request.query))
        }
        let key = location.pageKey(QueryString.url(Route.landing.path, location.linkItems))
        return listPlan(request, requestID: requestID, location: location) { snapshot in
            site.cachedPage(request, key: key, snapshot: snapshot) {
                landingPage(snapshot, location: location)
            }
        }
    }

    private func landingPage(_ snapshot: Fetched<Snapshot>, location: VisitorLocation) -> Response {
        let query = AnnouncementQuery(sort: .newest, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
        let found = snapshot.value.index.page(query, offset: 0, limit: PageHandlers.landingCount)
        let cards = site.cardHTML(found, location: location, generation: snapshot.value.generation)
        guard location.origin != nil, !snapshot.isStale else {
            return site.page(landingModel(location: location, cards: cards.html.map(RenderedCard.init(html:)), stale: staleNotice(snapshot)),
                             template: "landing")
        }
        let marked = location.withMarkedCoordinates
        let shape = "landing|\(QueryString.url(Route.landing.path, marked.linkItems))|\(cards.count)"
        let html = site.shells.page(key: shape, render: {
            site.renderer.render(landingModel(location: marked, cards: cards.indices.map(PageShells.markerCard), stale: nil),
                                 template: "landing") ?? []
        }, valueBytes: cards.byteCount, write: shellWriter(location, cards: cards))
        return Response(status: 200, headers: [.contentType: "text/html; charset=utf-8"], body: html)
    }

    private func landingModel(location: VisitorLocation, cards: [any CardView], stale: String?) -> LandingPageModel {
        LandingPageModel(
            layout: site.layout(
                title: "PetSpot — lost and found pets near you",
                description: "PetSpot helps lost pets find their way home: see the latest missing and found pets near you.",
                canonicalPath: Route.landing.path, location: location, isHome: true
            ),
            banner: banner(location, sameURLWithoutDenied: Route.landing.path),
            staleNotice: stale,
            cards: cards,
            hasCards: !cards.isEmpty,
            emptyMessage: location.origin == nil
                ? "No pets have been reported yet."
                : "No pets have been reported within \(location.rangeKm ?? PageHandlers.landingRangeKm) km of you.",
            viewAllURL: QueryString.url(Route.list.path, location.linkItems),
            nearbyText: location.origin == nil ? nil : "Within \(location.rangeKm ?? PageHandlers.landingRangeKm) km of you"
        )
    }

    // MARK: - List

    /// `GET /pets`.
    func list(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        let filters: ListFilters
        do {
            (location, filters) = try ListFilters.parseWithLocation(request.query, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .answer(site.badQuery(error, path: Route.list.path, query: request.query))
        }
        let key = location.pageKey(filters.url(page: filters.page, location: location))
        return listPlan(request, requestID: requestID, location: location) { snapshot in
            site.cachedPage(request, key: key, snapshot: snapshot) {
                listPage(snapshot, filters: filters, location: location)
            }
        }
    }

    private func listPage(_ snapshot: Fetched<Snapshot>, filters: ListFilters, location: VisitorLocation) -> Response {
        let query = AnnouncementQuery(status: filters.status, species: filters.species, sort: filters.sort,
                                      origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
        let found = snapshot.value.index.page(query, offset: (filters.page - 1) * PageHandlers.pageSize, limit: PageHandlers.pageSize)
        let pageCount = max(1, (found.total + PageHandlers.pageSize - 1) / PageHandlers.pageSize)
        guard filters.page <= pageCount else {
            return site.errorPage(status: 404, message: "There is no page \(filters.page) of this list: it has \(pageCount).",
                                  retryURL: filters.url(page: 1, location: location), location: location)
        }
        let summary = filters.summary(count: found.total, location: location)
        let pageSummary = "Page \(filters.page) of \(pageCount)"
        let cards = site.cardHTML(found, location: location, generation: snapshot.value.generation)
        guard location.origin != nil, !snapshot.isStale else {
            let model = listModel(filters: filters, location: location, pageCount: pageCount, summary: summary, pageSummary: pageSummary,
                                  cards: cards.html.map(RenderedCard.init(html:)), stale: staleNotice(snapshot))
            return site.page(model, template: "list")
        }
        // Located: the page of this shape, rendered once with markers, joined around this visitor's values.
        let marked = location.withMarkedCoordinates
        let shape = "list|\(filters.url(page: filters.page, location: marked))|\(cards.count)|\(pageCount > 1)|\(filters.page < pageCount)"
        let html = site.shells.page(key: shape, render: {
            let model = listModel(filters: filters, location: marked, pageCount: pageCount,
                                  summary: PageShells.marker(PageShells.Slot.summary),
                                  pageSummary: PageShells.marker(PageShells.Slot.pageSummary),
                                  cards: cards.indices.map(PageShells.markerCard), stale: nil)
            return site.renderer.render(model, template: "list") ?? []
        }, valueBytes: cards.byteCount, write: shellWriter(location, cards: cards, summary: summary, pageSummary: pageSummary))
        return Response(status: 200, headers: [.contentType: "text/html; charset=utf-8"], body: html)
    }

    private func listModel(filters: ListFilters, location: VisitorLocation, pageCount: Int, summary: String, pageSummary: String,
                           cards: [any CardView], stale: String?) -> ListPageModel {
        ListPageModel(
            layout: site.layout(
                title: filters.title + " · PetSpot",
                description: "Lost and found pets reported on PetSpot. Filter by status and species.",
                canonicalPath: filters.url(page: filters.page, location: .unknown), location: location, isList: true
            ),
            banner: banner(location, sameURLWithoutDenied: filters.url(page: filters.page, location: location)),
            staleNotice: stale,
            heading: filters.title,
            resultSummary: summary,
            mapURL: filters.url(.map, location: location),
            cards: cards,
            hasCards: !cards.isEmpty,
            emptyMessage: filters.isFiltered ? "No pets match these filters." : "No pets have been reported yet.",
            clearFiltersURL: filters.isFiltered ? QueryString.url(Route.list.path, location.linkItems) : nil,
            statusOptions: filters.statusOptions,
            speciesOptions: filters.speciesOptions,
            sortOptions: filters.sortOptions(located: location.origin != nil),
            hiddenFields: location.linkItems.compactMap { name, value in value.map { HiddenField(name: name, value: $0) } },
            pagination: pageCount > 1 ? PaginationModel(
                previousURL: filters.page > 1 ? filters.url(page: filters.page - 1, location: location) : nil,
                nextURL: filters.page < pageCount ? filters.url(page: filters.page + 1, location: location) : nil,
                summary: pageSummary
            ) : nil
        )
    }

    /// Writes the value of each slot of a located page shell (`PageShells.Slot`), HTML-ready.
    private func shellWriter(_ location: VisitorLocation, cards: CardSet, summary: String = "", pageSummary: String = "")
        -> (_ slot: Int, _ output: inout [UInt8]) -> Void {
        let coordinates = location.linkItems
        return { slot, output in
            switch slot {
            case PageShells.Slot.latitude: output += (coordinates[0].1 ?? "").utf8
            case PageShells.Slot.longitude: output += (coordinates[1].1 ?? "").utf8
            case PageShells.Slot.summary: HTMLText.escape(summary, into: &output)
            case PageShells.Slot.pageSummary: HTMLText.escape(pageSummary, into: &output)
            default:
                let card = slot - PageShells.Slot.firstCard
                if cards.indices.contains(card) { cards.write(card, into: &output) }
            }
        }
    }

    // MARK: - Details

    /// `GET /pets/{id}`: from the snapshot when it holds the id, else from the details endpoint.
    func details(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request.query, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .answer(site.badQuery(error, path: Route.details(id: id).path, query: request.query))
        }
        let key = location.pageKey(QueryString.url(Route.details(id: id).path, location.linkItems))
        return .fromSnapshot(
            render: { snapshot in
                guard let pet = snapshot.value.index.announcement(id: id) else { return nil }
                return site.cachedPage(request, key: key, snapshot: snapshot) {
                    site.page(detailsModel(pet, fetched: snapshot, location: location), template: "details")
                }
            },
            otherwise: {
                let fetched: Fetched<Announcement>
                do throws(UpstreamFailure) {
                    fetched = try await gateway.announcement(id: id, requestID: requestID)
                } catch .notFound {
                    return site.errorPage(status: 404, message: "This pet could not be found.", location: location)
                } catch {
                    return site.errorPage(status: error.visitorStatus, message: "Unable to load pet details. Please try again later.",
                                          retryURL: Self.sameURL(request), location: location)
                }
                // Fetched apart from the snapshot (not in the list): rendered for this request only.
                return site.finish(site.page(detailsModel(fetched.value, fetched: fetched, location: location), template: "details"),
                                   request: request, stale: fetched.isStale)
            }
        )
    }

    private func detailsModel<Value>(_ pet: Announcement, fetched: Fetched<Value>, location: VisitorLocation) -> DetailsPageModel {
        let canonicalPath = Route.details(id: pet.id).path
        let shareText = "\(pet.displayName) — \(pet.statusPhrase), last seen \(Format.date(pet.lastSeenDate)) in \(Format.place(pet.place))"
        let photo = PhotoLinks(pet.photo, width: 1280)
        return DetailsPageModel(
            layout: site.layout(
                title: "\(pet.displayName) — \(pet.statusPhrase) · PetSpot",
                description: pet.excerpt(limit: 200) ?? shareText,
                canonicalPath: canonicalPath,
                ogImage: site.absolutePhotoURL(pet.photo),
                ogType: "article",
                location: location,
                hasMap: pet.place.coordinate != nil
            ),
            staleNotice: staleNotice(fetched),
            id: pet.id,
            name: pet.displayName,
            statusLabel: pet.status.label,
            statusClass: pet.status.rawValue,
            rewardText: pet.reward.map(Format.rewardBadge),
            photoURL: photo?.src,
            photoSrcset: photo?.srcset,
            photoFullURL: photo?.full,
            photoAlt: pet.photoAlt,
            subtitle: [pet.speciesLabel, pet.breed].compactMap { $0 }.joined(separator: " · "),
            rows: pet.detailRows(origin: location.origin),
            description: pet.description,
            mapURL: pet.mapURL,
            pinMap: pet.pinMap,
            phoneHref: pet.phoneLinkTarget,
            phoneText: pet.phone,
            emailHref: pet.email.map { "mailto:" + $0 },
            emailText: pet.email,
            shareURL: site.baseURL + canonicalPath,
            shareTitle: "\(pet.displayName) — \(pet.statusPhrase) on PetSpot",
            backURL: QueryString.url(Route.list.path, location.linkItems)
        )
    }

    // MARK: - Shared pieces

    /// A page made from the snapshot: at once when it is in hand, else after the shared fetch
    /// (whose failure is the 502/504 page).
    func listPlan(_ request: Request, requestID: String, location: VisitorLocation,
                          render: @escaping @Sendable (Fetched<Snapshot>) -> Response) -> RoutePlan {
        .fromSnapshot(render: render, otherwise: { [gateway, site] in
            do throws(UpstreamFailure) {
                return render(try await gateway.snapshot(requestID: requestID))
            } catch {
                return site.errorPage(status: error.visitorStatus == 404 ? 502 : error.visitorStatus,
                                      message: "Unable to load data. Please try again later.",
                                      retryURL: Self.sameURL(request), location: location)
            }
        })
    }

    /// The banner, whose links lead to the same (normalized) page without `location=denied`.
    func banner(_ location: VisitorLocation, sameURLWithoutDenied url: String) -> BannerModel? {
        guard location.denied else { return nil }
        return BannerModel(
            title: "Location Access Needed",
            message: "Enable location access in your browser settings to see nearby pets.",
            tryAgainURL: url,
            dismissURL: url
        )
    }

    /// The notice of a page made from saved data, nil for fresh data.
    func staleNotice<Value>(_ fetched: Fetched<Value>) -> String? {
        guard fetched.isStale else { return nil }
        return "The pet service is not answering right now, so this is saved data from \(Self.age(since: fetched.fetchedAt))."
    }

    /// "just now", "1 minute ago", "4 minutes ago".
    static func age(since date: Date, now: Date = Date()) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "less than a minute ago"
        case ..<120: return "1 minute ago"
        default: return "\(seconds / 60) minutes ago"
        }
    }

    /// The request's own path and query, for "Try again" links.
    static func sameURL(_ request: Request) -> String {
        QueryString.url(request.rawPath, keeping: request.query)
    }
}
