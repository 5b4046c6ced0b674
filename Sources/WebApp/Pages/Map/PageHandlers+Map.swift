import Foundation
import MicroHTTP
import PetAPIClient
import PetDomain

extension PageHandlers {
    /// `GET /map` (docs/map.md): every announcement matching the `/pets` parameters as a pin on a
    /// Leaflet map, and the same announcements as a list of places below it (the page without
    /// JavaScript, and the map's alternative for screen readers). The pins' data is in the page
    /// itself (`data-lat`, `data-lng`, `data-status` on each place, which is also the pin's popup),
    /// so the map and the list always come from the same snapshot and cost one request.
    func map(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        let filters: ListFilters
        do {
            (location, filters) = try ListFilters.parseWithLocation(request, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.badQuery(error, path: Route.map.path, query: request.query))
        }
        let key = location.pageKey(filters.url(.map, location: location))
        return listPlan(request, requestID: requestID, location: location) { snapshot in
            site.caches.cachedPage(request, key: key, snapshot: snapshot) { day in
                site.renderer.page(mapModel(snapshot, filters: filters, location: location, day: day), template: "map", language: location.language)
            }
        }
    }

    private func mapModel(_ snapshot: Fetched<Snapshot>, filters: ListFilters, location: VisitorLocation, day: Int) -> MapPageModel {
        let texts = site.renderer.texts(location.language)
        let found = filters.index(of: snapshot.value).page(filters.query(location: location), offset: 0, limit: .max)
        let places = found.items.map { $0.mapPlace(location: location, texts: texts, day: day) }
        let pinned = places.filter { $0.latitude != nil }.count
        let title = filters.title(texts)
        return MapPageModel(
            layout: site.layout(
                title: texts(.pageTitle, ("title", texts(.mapTitle, ("title", title)))),
                description: texts(.mapDescription),
                canonicalPath: filters.url(.map, location: .unknown),
                location: location,
                pageURL: { filters.url(.map, location: $0) },
                isMap: true,
                hasMap: true
            ).withFeed(filters: filters, location: location, texts: texts),
            banner: banner(location, sameURLWithoutDenied: filters.url(.map, location: location)),
            staleNotice: staleNotice(snapshot, location),
            heading: texts(.mapHeading, ("title", title)),
            resultSummary: filters.summary(count: found.total, location: location, texts: texts),
            listURL: filters.url(page: 1, location: location),
            mapLabel: texts.counted(.mapLabel, pinned),
            tileURL: Route.tilePattern,
            visitorLatitude: location.coordinateText?.latitude,
            visitorLongitude: location.coordinateText?.longitude,
            rangeMeters: location.origin == nil ? nil : location.rangeKm.map { String($0 * 1000) },
            places: places,
            hasPlaces: !places.isEmpty,
            emptyMessage: filters.isFiltered ? texts(.listEmptyFiltered) : texts(.petsEmpty)
        )
    }
}

extension Route {
    /// The tile route as Leaflet's URL template (`{z}`, `{x}`, `{y}` filled in by the map script): its
    /// pattern in the route table, which Leaflet's templates happen to share.
    static let tilePattern = RouteTable.entry(.tile).pattern.description
}

extension Announcement {
    /// The place of this announcement on the map page: its list entry, which is also its pin's popup.
    func mapPlace(location: VisitorLocation, texts: Texts, day: Int) -> MapPlaceModel {
        MapPlaceModel(
            card: card(origin: location.origin, location: location, texts: texts, day: day),
            thumbnailURL: PhotoLinks(photo, width: 320)?.src,
            latitude: place.coordinate.map { String($0.latitude) },
            longitude: place.coordinate.map { String($0.longitude) },
            mapURL: mapURL
        )
    }

    /// The small map of the details page: this pet's pin; nil for a city-only place.
    func pinMap(texts: Texts) -> PinMapModel? {
        guard let point = place.coordinate else { return nil }
        return PinMapModel(
            latitude: String(point.latitude),
            longitude: String(point.longitude),
            statusClass: status.rawValue,
            label: texts(.mapPinLabel, ("name", Announcement.shortened(texts.name(self), limit: Announcement.cardNameLimit))),
            tileURL: Route.tilePattern
        )
    }
}
