import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain

extension AnnouncementsAPI {
    /// `GET /api/v1/announcements.geojson` (docs/upstream.md §4): what `/map` shows, for any map client, as an
    /// RFC 7946 `FeatureCollection`. Same parameters as `/pets` and `/map` (15 km default range when
    /// located, like them), a bad one answered as the JSON API's 400; kept per snapshot and
    /// conditional (ETag/304) like the other API answers.
    func geoJSON(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        let filters: ListFilters
        do throws(QueryProblem) {
            (location, filters) = try ListFilters.parseWithLocation(request.query, defaultRangeKm: PageHandlers.listRangeKm)
        } catch {
            return .failed(.parameter(error))
        }
        let key = filters.url(.apiGeoJSON, location: location)
        let render: @Sendable (Fetched<Snapshot>) -> Reply = { [site] snapshot in
            var reply = site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                let found = filters.index(of: snapshot.value).page(filters.query(location: location), offset: 0, limit: .max)
                let body = AnnouncementGeoJSON.encode(found.items, origin: location.origin, links: AnnouncementsAPI.geoJSONLinks)
                return Response(status: .ok, headers: [.contentType: AnnouncementsAPI.geoJSONType], body: Array(body))
            }
            self.markAge(&reply, snapshot.fetchedAt, stale: snapshot.isStale)
            return reply
        }
        return fromSnapshot(requestID: requestID, render: render)
    }

    /// RFC 7946's media type.
    static let geoJSONType = "application/geo+json"

    /// A feature's details page, and its photo as the map's popups show it (the 320 px variant).
    static let geoJSONLinks = AnnouncementGeoJSON.Links(
        page: { Route.details(id: $0.id).path },
        photo: { PhotoLinks($0.photo, width: 320)?.src }
    )
}
