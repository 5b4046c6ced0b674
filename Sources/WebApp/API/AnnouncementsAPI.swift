import Foundation
import HTTPTypes
import MicroHTTP
import PetAPIClient
import PetDomain
import Synchronization

/// `GET /api/v1/announcements[?lat&lng&range]` and `/api/v1/announcements/{id}`: the validated,
/// normalized data in the current backend's JSON shape (docs/upstream.md §4), so a mobile client can
/// point here instead of the raw backend.
struct AnnouncementsAPI: Sendable {
    let gateway: AnnouncementGateway
    /// Where encoded bodies are kept (the rendered-page cache: same key rules, same byte budget).
    let site: SiteContext
    /// The whole list without location, kept apart: at 50,000 announcements it is ~28 MB, more
    /// than the page cache holds, and must be encoded once per snapshot, not once per request.
    let wholeList = WholeListBody()

    /// Default radius when located and no `range` is given (the backend's own default, §1).
    static let defaultRangeKm = 5

    /// What an item without a usable photo gets as `photoUrl`: a neutral picture of ours. The
    /// mobile apps declare `photoUrl` a required string and fail the whole list on a `null`, and
    /// the backend's list never holds one. PNG, not SVG: the apps' native image
    /// decoders do not read SVG.
    static let placeholderPhotoURL = Route.staticFile(path: placeholderAsset).path
    /// The placeholder's file below `Public/` (also the body of a missing photo's 404).
    static let placeholderAsset = "img/photo-placeholder.png"

    /// The API's OpenAPI document below `Public/`, served at `/api/v1/openapi.json` (docs/openapi.md).
    static let documentAsset = "api/openapi.json"

    /// `photoUrl` on the API: our proxy for upstream photos, the placeholder without one.
    static let photoLinks = AnnouncementJSON.PhotoLinks(url: { PhotoLinks.publicURL(of: $0) }, placeholder: placeholderPhotoURL)

    /// The list, newest first, with `distanceKm` when located, from the snapshot.
    func list(_ request: Request, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        switch AnnouncementsAPI.location(of: request) {
        case .success(let parsed): location = parsed
        case .failure(let problem): return .failed(.parameter(problem))
        }
        let key = QueryString.url(Route.apiList.path, location.linkItems)
        let render: @Sendable (Fetched<Snapshot>) -> Reply = { [site, wholeList] snapshot in
            if location.origin == nil, !snapshot.isStale {
                let kept = wholeList.response(generation: snapshot.value.generation, acceptEncoding: request.headers[.acceptEncoding]) {
                    let newestFirst = snapshot.value.index.page(AnnouncementQuery(sort: .newest), offset: 0, limit: .max).items
                    return site.caches.prepared(
                        Response.json(AnnouncementJSON.encodeListBytes(newestFirst, origin: nil, photos: AnnouncementsAPI.photoLinks)),
                        stale: false
                    )
                }
                var reply = Reply(ConditionalGet.answer(kept, request: request), cache: site.caches.fresh)
                self.markAge(&reply, snapshot.fetchedAt, stale: false)
                return reply
            }
            var reply = site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                let query = AnnouncementQuery(sort: .newest, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
                let found = snapshot.value.index.page(query, offset: 0, limit: .max)
                return Response.json(Array(AnnouncementJSON.encodeList(found.items, origin: location.origin, photos: AnnouncementsAPI.photoLinks)))
            }
            self.markAge(&reply, snapshot.fetchedAt, stale: snapshot.isStale)
            return reply
        }
        return fromSnapshot(requestID: requestID, render: render)
    }

    /// Answered by `render` from the snapshot, waiting for it when not in memory; the upstream's
    /// error when it fails.
    func fromSnapshot(requestID: String, render: @escaping @Sendable (Fetched<Snapshot>) throws(HTTPError) -> Reply) -> RoutePlan {
        .needs(.snapshot(gateway, requestID: requestID)) { fetched throws(HTTPError) in
            switch fetched {
            case .success(let snapshot): try render(snapshot)
            case .failure(let error): throw .upstream(error)
            }
        }
    }

    /// One announcement: from the snapshot when it holds the id, else the details endpoint; 404
    /// JSON when the upstream has none.
    func details(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let location: VisitorLocation
        switch AnnouncementsAPI.location(of: request) {
        case .success(let parsed): location = parsed
        case .failure(let problem): return .failed(.parameter(problem))
        }
        let key = QueryString.url(Route.apiDetails(id: id).path, location.linkItems)
        return .needs(.announcement(id: id, gateway, requestID: requestID)) { [site] source throws(HTTPError) in
            switch source {
            case .listed(let pet, let snapshot):
                var reply = site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                    Response.json(Array(AnnouncementJSON.encodeDetails(pet, origin: location.origin, photos: AnnouncementsAPI.photoLinks)))
                }
                self.markAge(&reply, snapshot.fetchedAt, stale: snapshot.isStale)
                return reply
            case .fetched(let fetched):
                let body = AnnouncementJSON.encodeDetails(fetched.value, origin: location.origin, photos: AnnouncementsAPI.photoLinks)
                var reply = site.caches.reply(Response.json(Array(body)), stale: fetched.isStale)
                self.markAge(&reply, fetched.fetchedAt, stale: fetched.isStale)
                return reply
            case .failed(let error):
                throw .upstream(error)
            }
        }
    }

    /// The visitor's location from `lat`, `lng`, `range` (the backend's 5 km default range).
    static func location(of request: Request) -> Result<VisitorLocation, QueryProblem> {
        Result { () throws(QueryProblem) in
            try VisitorLocation.parse(request.query, defaultRangeKm: AnnouncementsAPI.defaultRangeKm)
        }
    }

    /// `Age` (seconds since the upstream confirmed the data, by the app's clock) and a stale marker header.
    func markAge(_ reply: inout Reply, _ fetchedAt: Date, stale: Bool) {
        reply.response.headers[.age] = String(max(0, Int(site.days.date.timeIntervalSince(fetchedAt))))
        // The Age changes every second: this answer is for this request only.
        reply.cache = reply.cache.forThisRequest
        if stale { reply.response.headers[.xPetSpotStale] = "true" }
    }
}

extension HTTPField.Name {
    /// `X-PetSpot-Stale: true` on an API answer served from data the upstream could not confirm.
    static let xPetSpotStale = Self("X-PetSpot-Stale")!
}
