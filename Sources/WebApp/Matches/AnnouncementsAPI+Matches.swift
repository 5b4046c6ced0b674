import Foundation
import MicroHTTP
import PetAPIClient
import PetDomain

extension AnnouncementsAPI {
    /// `GET /api/v1/announcements/{id}/matches` (docs/matching.md "API"): `{"data": […]}`, the
    /// report's possible matches in the details page's order, each the announcement JSON with
    /// `distanceKm` from the report, `score` and `reasons` as codes and values. An unknown id is
    /// the details endpoint's 404; a report with no match is `{"data":[]}`.
    func matches(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let key = Route.apiMatches(id: id).path
        return .needs(.announcement(id: id, gateway, requestID: requestID)) { [site, gateway] source throws(HTTPError) in
            switch source {
            case .listed(let pet, let snapshot):
                var reply = site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                    AnnouncementsAPI.matchesBody(pet, snapshot: snapshot.value, site: site)
                }
                self.markAge(&reply, snapshot.fetchedAt, stale: snapshot.isStale)
                return reply
            case .fetched(let fetched):
                let body = AnnouncementsAPI.matchesBody(fetched.value, snapshot: gateway.freshSnapshot()?.value, site: site)
                var reply = site.caches.reply(body, stale: fetched.isStale)
                self.markAge(&reply, fetched.fetchedAt, stale: fetched.isStale)
                return reply
            case .failed(let error):
                throw .upstream(error)
            }
        }
    }

    /// The JSON of `pet`'s matches in `snapshot` (none without one).
    static func matchesBody(_ pet: Announcement, snapshot: Snapshot?, site: SiteContext) -> Response {
        let matches = snapshot.map { site.caches.matchMemo.matches(for: pet, in: $0) } ?? []
        let items = snapshot.map { snapshot in matches.map { snapshot.index.items[$0.position] } } ?? []
        let body = AnnouncementJSON.encodeMatches(matches, items: items, origin: pet.place.coordinate, photos: AnnouncementsAPI.photoLinks)
        return Response.json(Array(body))
    }
}
