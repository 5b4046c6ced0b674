import HTTPTypes
import MicroHTTP

extension Router {
    /// The plan of each kind of route (its entry of `RouteTable` says the rest): a switch without a
    /// default, so a kind added to `RouteKind` does not build until it has its handler. The router has
    /// checked the method; the entry's privacy is applied to the plan after (`Router.plan`).
    func handle(_ route: Route, _ request: Request, requestID id: String) -> RoutePlan {
        switch route.kind {
        case .landing: return pages.landing(request, requestID: id)
        case .list: return pages.list(request, requestID: id)
        case .map: return pages.map(request, requestID: id)
        case .feed: return pages.feed(request, requestID: id)
        case .details: return pages.details(request, id: route.id, requestID: id)
        case .poster: return pages.poster(request, id: route.id, requestID: id)
        case .matches: return pages.matches(request, id: route.id, requestID: id)
        case .matchesFeed: return pages.matchesFeed(request, id: route.id, requestID: id)
        case .legacyList: return .answer(Router.redirect(to: Route.list.path, query: request))
        case .legacyDetails: return .answer(Router.redirect(to: Route.details(id: route.id).path, query: request))
        case .image: return image(request, path: route.id, requestID: id)
        case .staticFile: return staticFile(route.id, request: request)
        case .favicon: return staticFile("favicon.svg", request: request)
        case .tile:
            guard let tile = route.tile else { return .failed(HTTPError(404, .errorNoPage)) }
            return .needs(tiles.need(tile, requestID: id)) { [tiles] outcome throws(HTTPError) in try tiles.answer(outcome, request: request) }
        case .apiList:
            guard request.method == .post else { return api.list(request, requestID: id) }
            // A write's answer is its writer's: the route is public, this answer private.
            return RoutePlan.work { [writes] () async throws(HTTPError) in try await writes.create(request, requestID: id) }.under(.private)
        case .apiDetails: return api.details(request, id: route.id, requestID: id)
        case .apiGeoJSON: return api.geoJSON(request, requestID: id)
        case .apiDocument:
            // docs/openapi.yaml as JSON (scripts/openapi.sh makes it), read at startup with the other
            // public files: ETag, 304 and its compressed forms come with it.
            return staticFiles.reply(for: AnnouncementsAPI.documentAsset, request: request).map(RoutePlan.answer)
                ?? .failed(.api(404, code: "NOT_FOUND", message: "The API document is not installed."))
        case .apiPhotos:
            return RoutePlan.work { [writes] () async throws(HTTPError) in try await writes.photo(request, id: route.id, requestID: id) }
        case .apiMatches: return api.matches(request, id: route.id, requestID: id)
        case .report:
            guard request.method == .post else { return .making { () throws(HTTPError) in try reports.form(request) } }
            return .work { [reports, alerts] in
                // "E-mail me possible matches" ticked on the form: the new report is followed (a confirmation first).
                await alerts.followMatches(made: await reports.submit(request, requestID: id), request, requestID: id)
            }
        case .reportPhoto:
            guard request.method == .post else { return .answer(reports.photoForm(request)) }
            return .work { [reports] in await reports.sendPhoto(request, requestID: id) }
        case .alerts: return .work { [alerts] in await alerts.subscribe(request, requestID: id) }
        case .alertConfirm: return alertLink(.confirm, route, request, requestID: id)
        case .alertManage: return alertLink(.manage, route, request, requestID: id)
        case .alertStop: return alertLink(.stop, route, request, requestID: id)
        case .alertNever: return alertLink(.never, route, request, requestID: id)
        case .sighting:
            guard request.method == .post else { return .work { [sightings] in await sightings.form(request, id: route.id, requestID: id) } }
            return .work { [sightings] in await sightings.submit(request, id: route.id, requestID: id) }
        case .sightings:
            guard request.method == .post else { return .work { [sightings] in await sightings.owner(request, id: route.id, requestID: id) } }
            return .work { [sightings] in await sightings.signIn(request, id: route.id, requestID: id) }
        case .sightingPhoto:
            let photo = route.parameters.count > 1 ? route.parameters[1] : ""
            return .work { [sightings] in await sightings.photo(request, id: route.id, sighting: photo, requestID: id) }
        case .reunited: return .work { [sightings] in await sightings.reunite(request, id: route.id, requestID: id) }
        case .healthz: return .answer(.text("ok\n"))
        case .readyz: return .work { await readiness(requestID: id) }
        case .metrics: return .answer(metricsEndpoint.scrape())
        }
    }

    /// A mail link's page (GET) or action (POST).
    private func alertLink(_ action: AlertAction, _ route: Route, _ request: Request, requestID: String) -> RoutePlan {
        .work { [alerts] in await alerts.link(action, token: route.id, request, requestID: requestID) }
    }
}
