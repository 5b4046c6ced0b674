import Foundation
import MicroHTTP
import PetAPIClient
import PetDomain

/// The HTML pages: landing, list and details (product-spec §4).
struct PageHandlers: Sendable {
    let site: SiteContext
    let gateway: AnnouncementGateway

    /// Landing: the 5 newest announcements (within 10 km when located).
    static let landingCount = 5
    static let landingRangeKm = 10
    /// List: 20 per page, 15 km default radius when located.
    static let pageSize = 20
    static let listRangeKm = 15

    /// `GET /`.
    func landing(_ request: Request, requestID: String) async -> Response {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request.query, defaultRangeKm: PageHandlers.landingRangeKm)
        } catch {
            return site.badQuery(error, path: Route.landing.path, query: request.query)
        }
        let fetched: Fetched<ListOutcome>
        do {
            fetched = try await gateway.list(near: location.origin, rangeKm: location.rangeKm, requestID: requestID)
        } catch {
            return listFailure(error, request: request, location: location)
        }
        return site.cachedPage(request, version: fetched.fetchedAt, stale: fetched.isStale) {
            (landingModel(fetched, location: location, request: request), "landing")
        }
    }

    private func landingModel(_ fetched: Fetched<ListOutcome>, location: VisitorLocation, request: Request) -> LandingPageModel {
        let query = AnnouncementQuery(sort: .newest, origin: location.origin,
                                      rangeKm: location.rangeKm.map(Double.init), limit: PageHandlers.landingCount)
        let cards = fetched.value.items.applying(query).map { $0.card(origin: location.origin, location: location) }
        return LandingPageModel(
            layout: site.layout(
                title: "PetSpot — lost and found pets near you",
                description: "PetSpot helps lost pets find their way home: see the latest missing and found pets near you.",
                canonicalPath: Route.landing.path, location: location, isHome: true
            ),
            banner: banner(location, path: Route.landing.path, request: request),
            staleNotice: staleNotice(fetched),
            cards: cards,
            hasCards: !cards.isEmpty,
            emptyMessage: location.origin == nil
                ? "No pets have been reported yet."
                : "No pets have been reported within \(location.rangeKm ?? PageHandlers.landingRangeKm) km of you.",
            viewAllURL: QueryString.url(Route.list.path, location.linkItems),
            nearbyText: location.origin == nil ? nil : "Within \(location.rangeKm ?? PageHandlers.landingRangeKm) km of you"
        )
    }

    /// `GET /pets`.
    func list(_ request: Request, requestID: String) async -> Response {
        let location: VisitorLocation
        let filters: ListFilters
        do {
            location = try VisitorLocation.parse(request.query, defaultRangeKm: PageHandlers.listRangeKm)
            filters = try ListFilters.parse(request.query, located: location.origin != nil)
        } catch {
            return site.badQuery(error, path: Route.list.path, query: request.query)
        }
        let fetched: Fetched<ListOutcome>
        do {
            fetched = try await gateway.list(near: location.origin, rangeKm: location.rangeKm, requestID: requestID)
        } catch {
            return listFailure(error, request: request, location: location)
        }
        let query = AnnouncementQuery(status: filters.status, species: filters.species, sort: filters.sort,
                                      origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
        let matching = fetched.value.items.applying(query)
        let pageCount = max(1, (matching.count + PageHandlers.pageSize - 1) / PageHandlers.pageSize)
        guard filters.page <= pageCount else {
            return site.errorPage(status: 404, message: "There is no page \(filters.page) of this list: it has \(pageCount).",
                                  retryURL: filters.url(page: 1, location: location), location: location)
        }
        return site.cachedPage(request, version: fetched.fetchedAt, stale: fetched.isStale) {
            (listModel(fetched, matching: matching, pageCount: pageCount, filters: filters, location: location, request: request), "list")
        }
    }

    private func listModel(_ fetched: Fetched<ListOutcome>, matching: [Announcement], pageCount: Int,
                           filters: ListFilters, location: VisitorLocation, request: Request) -> ListPageModel {
        let pageItems = matching.dropFirst((filters.page - 1) * PageHandlers.pageSize).prefix(PageHandlers.pageSize)
        let cards = pageItems.map { $0.card(origin: location.origin, location: location) }
        return ListPageModel(
            layout: site.layout(
                title: filters.title + " · PetSpot",
                description: "Lost and found pets reported on PetSpot. Filter by status and species.",
                canonicalPath: filters.url(page: filters.page, location: .unknown), location: location, isList: true
            ),
            banner: banner(location, path: Route.list.path, request: request),
            staleNotice: staleNotice(fetched),
            heading: filters.title,
            resultSummary: filters.summary(count: matching.count, location: location),
            cards: Array(cards),
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
                summary: "Page \(filters.page) of \(pageCount)"
            ) : nil
        )
    }

    /// `GET /pets/{id}`.
    func details(_ request: Request, id: String, requestID: String) async -> Response {
        let location: VisitorLocation
        do {
            location = try VisitorLocation.parse(request.query, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return site.badQuery(error, path: Route.details(id: id).path, query: request.query)
        }
        let fetched: Fetched<Announcement>
        do {
            fetched = try await gateway.announcement(id: id, requestID: requestID)
        } catch .notFound {
            return site.errorPage(status: 404, message: "This pet could not be found.", location: location)
        } catch {
            return site.errorPage(status: error.visitorStatus, message: "Unable to load pet details. Please try again later.",
                                  retryURL: Self.sameURL(request), location: location)
        }
        return site.cachedPage(request, version: fetched.fetchedAt, stale: fetched.isStale) {
            (detailsModel(fetched, location: location), "details")
        }
    }

    private func detailsModel(_ fetched: Fetched<Announcement>, location: VisitorLocation) -> DetailsPageModel {
        let pet = fetched.value
        let canonicalPath = Route.details(id: pet.id).path
        let shareText = "\(pet.displayName) — \(pet.statusPhrase), last seen \(Format.date(pet.lastSeenDate)) in \(Format.place(pet.place))"
        return DetailsPageModel(
            layout: site.layout(
                title: "\(pet.displayName) — \(pet.statusPhrase) · PetSpot",
                description: pet.excerpt(limit: 200) ?? shareText,
                canonicalPath: canonicalPath,
                ogImage: site.absolutePhotoURL(pet.photo),
                ogType: "article",
                location: location
            ),
            staleNotice: staleNotice(fetched),
            id: pet.id,
            name: pet.displayName,
            statusLabel: pet.status.label,
            statusClass: pet.status.rawValue,
            rewardText: pet.reward.map(Format.rewardBadge),
            photoURL: SiteContext.photoURL(pet.photo),
            photoAlt: pet.photoAlt,
            subtitle: [pet.speciesLabel, pet.breed].compactMap { $0 }.joined(separator: " · "),
            rows: pet.detailRows(origin: location.origin),
            description: pet.description,
            mapURL: pet.mapURL,
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

    private func banner(_ location: VisitorLocation, path: String, request: Request) -> BannerModel? {
        guard location.denied else { return nil }
        let kept = request.query.items.filter { $0.name != "location" }.map { ($0.name, Optional($0.value)) }
        let without = QueryString.url(path, kept)
        return BannerModel(
            title: "Location Access Needed",
            message: "Enable location access in your browser settings to see nearby pets.",
            tryAgainURL: without,
            dismissURL: without
        )
    }

    private func staleNotice<Value>(_ fetched: Fetched<Value>) -> String? {
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

    private func listFailure(_ failure: UpstreamFailure, request: Request, location: VisitorLocation) -> Response {
        site.errorPage(status: failure.visitorStatus == 404 ? 502 : failure.visitorStatus,
                       message: "Unable to load data. Please try again later.",
                       retryURL: Self.sameURL(request),
                       location: location)
    }
}
