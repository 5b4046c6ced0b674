import Foundation
import HTTPTypes
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain

/// `/pets/{id}/matches`: every kept possible match of a report (docs/matching.md).
@TemplateFields
package struct MatchesPageModel: Sendable {
    package let layout: LayoutModel
    package let staleNotice: String?
    package let heading: String  // "Possible matches for Max"
    package let backURL: String  // the pet's details page
    package let matches: MatchSectionModel?  // nil → "No possible matches right now."
    package let matchesFeedURL: String
}

extension MatchesPageModel: ViewModel {}

extension PageHandlers {
    /// `GET /pets/{id}/matches`: the pet's page plan (`petPage`: from the snapshot, kept like other
    /// pages, or fetched apart; 404 for an unknown id) with every kept match.
    func matches(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let path = Route.matches(id: id).path
        let language: PageLanguage
        do {
            language = try PageLanguage.of(request)
        } catch {
            return .failed(.badQuery(LocatedProblem(problem: error, language: .standard), path: path, query: request.query))
        }
        // The page does not depend on where the visitor is: one kept page per language.
        let location = VisitorLocation.unknown(language)
        let pageURL: @Sendable (VisitorLocation) -> String = { QueryString.url(path, $0.language.linkItems) }
        let key = location.pageKey(QueryString.url(path, language.linkItems))
        return petPage(request, id: id, requestID: requestID, key: key, location: location, pageURL: pageURL, template: "matches") {
            pet,
            _,
            staleNotice,
            _ in
            let texts = site.renderer.texts(location.language)
            let heading = texts(.matchPageTitle, ("name", texts.name(pet)))
            return MatchesPageModel(
                layout: site.layout(
                    title: texts(.pageTitle, ("title", heading)),
                    description: heading,
                    canonicalPath: path,
                    location: location,
                    pageURL: pageURL
                ),
                staleNotice: staleNotice,
                heading: heading,
                backURL: LayoutBuilder.withLanguage(Route.details(id: pet.id).path, location.language),
                matches: site.matchSection(
                    for: pet,
                    in: gateway.freshSnapshot()?.value,
                    language: location.language,
                    limit: Matching.maxMatches,
                    linkAll: false
                ),
                matchesFeedURL: LayoutBuilder.withLanguage(
                    Route.matchesFeed(id: pet.id).path,
                    PageLanguage(language: location.language.language, explicit: true)
                )
            )
        }
    }

    /// `GET /pets/{id}/matches.atom`: the pet's possible matches as an Atom 1.0 feed (RFC 4287),
    /// by the rules of the search feeds (docs/feeds.md): stable tag ids, `updated` from the newest
    /// matching report, `Last-Modified`, ETag and 304 through the same page reuse, and no phone
    /// number, e-mail or contact name. An owner subscribes once; each new matching report is a new entry.
    func matchesFeed(_ request: Request, id: String, requestID: String) -> RoutePlan {
        let language: PageLanguage
        do {
            language = try PageLanguage.of(request)
        } catch {
            return .failed(.badQuery(LocatedProblem(problem: error, language: .standard), path: Route.matchesFeed(id: id).path, query: request.query))
        }
        let stated = PageLanguage(language: language.language, explicit: true)
        let key = "matchfeed|" + VisitorLocation.unknown(stated).pageKey(Route.matchesFeed(id: id).path) + (language.explicit ? "" : "|vary")
        let location = VisitorLocation.unknown(language)
        let pageURL: @Sendable (VisitorLocation) -> String = { QueryString.url(Route.details(id: id).path, $0.language.linkItems) }
        return .needs(.announcement(id: id, gateway, requestID: requestID)) { [site, gateway] source throws(HTTPError) in
            switch source {
            case .listed(let pet, let snapshot):
                return site.caches.cachedPage(request, key: key, snapshot: snapshot) {
                    matchesFeedResponse(pet, snapshot: snapshot.value, language: stated, headerChoseLanguage: !language.explicit)
                }
            case .fetched(let fetched):
                let feed = matchesFeedResponse(
                    fetched.value,
                    snapshot: gateway.freshSnapshot()?.value,
                    language: stated,
                    headerChoseLanguage: !language.explicit
                )
                return site.caches.reply(feed, stale: fetched.isStale)
            case .failed(let error):
                throw petUnavailable(error, request: request, location: location, pageURL: pageURL)
            }
        }
    }

    private func matchesFeedResponse(_ pet: Announcement, snapshot: Snapshot?, language: PageLanguage, headerChoseLanguage: Bool) -> Response {
        let texts = site.renderer.texts(language)
        let authority = site.caches.feedEntries.authority
        let matches = snapshot.map { site.caches.matchMemo.matches(for: pet, in: $0) } ?? []
        let items = matches.compactMap { match in snapshot.map { ($0.index.items[match.position], match) } }
        let path = Route.matchesFeed(id: pet.id).path
        let updated = items.map { $0.0.createdAt.wholeSeconds }.max() ?? pet.createdAt.wholeSeconds
        var body: [UInt8] = []
        body.reserveCapacity(1024 + items.count * 1024)
        body += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n".utf8
        body +=
            "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:georss=\"http://www.georss.org/georss\" xml:lang=\"\(language.language.rawValue)\">\n"
            .utf8
        XMLText.element("id", "tag:\(authority),\(FeedSearch.tagDate):\(path.dropFirst())", into: &body)
        let title = texts(.matchFeedTitle, ("name", texts.name(pet)), ("phrase", texts.phrase(pet.status, pet.species)))
        XMLText.element("title", texts(.pageTitle, ("title", title)), into: &body)
        XMLText.link(rel: "self", type: "application/atom+xml", href: site.layout.baseURL + LayoutBuilder.withLanguage(path, language), into: &body)
        let matchesPage = LayoutBuilder.withLanguage(Route.matches(id: pet.id).path, language)
        XMLText.link(rel: "alternate", type: "text/html", href: site.layout.baseURL + matchesPage, into: &body)
        XMLText.element("updated", AtomDate.string(updated), into: &body)
        body += "<author>".utf8
        XMLText.element("name", texts(.feedAuthor), into: &body)
        body += "</author>\n".utf8
        for (other, match) in items {
            body += "<entry>\n".utf8
            // One entry per pair of reports, the same in both languages.
            XMLText.element("id", "tag:\(authority),\(FeedSearch.tagDate):\(path.dropFirst())/\(URLText.encodeComponent(other.id))", into: &body)
            let phrase = texts.phrase(other.status, other.species)
            XMLText.element("title", texts(.matchFeedEntryTitle, ("phrase", phrase), ("name", texts.name(other))), into: &body)
            let details = LayoutBuilder.withLanguage(Route.details(id: other.id).path, language)
            XMLText.link(rel: "alternate", type: "text/html", href: site.layout.baseURL + details, into: &body)
            let created = AtomDate.string(other.createdAt.wholeSeconds)
            XMLText.element("published", created, into: &body)
            XMLText.element("updated", created, into: &body)
            var summary = match.certain ? [texts(.matchCertain)] : []
            summary += match.reasons.filter { $0 != .sameMicrochip }.map(texts.matchReason)
            summary.append(FeedSearch.summary(other, texts: texts))
            XMLText.element("summary", summary.joined(separator: FeedSearch.summarySeparator), into: &body)
            if let point = other.place.coordinate {
                body += "<georss:point>\(point.latitude) \(point.longitude)</georss:point>\n".utf8
            }
            body += "</entry>\n".utf8
        }
        body += "</feed>\n".utf8
        var headers: HTTPFields = [
            .contentType: "application/atom+xml; charset=utf-8", .contentLanguage: language.language.rawValue,
            .lastModified: HTTPDate.format(updated),
        ]
        if headerChoseLanguage { headers.append(HTTPField(name: .vary, value: "Accept-Language")) }
        return Response(status: 200, headers: headers, body: body)
    }
}
