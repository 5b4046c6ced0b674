import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain
import ReportStore

/// E-mail alerts' pages (docs/alerts.md): the subscribe form's answer (`POST /alerts`), and the pages
/// of a mail's links (`/alerts/{confirm|manage|stop|never}/{token}`). Every one is for its visitor only
/// (`CachePolicy.private`: never kept, never compressed), and says the same whatever the address was
/// (new, pending or subscribed: no address enumeration).
struct AlertHandlers: Sendable {
    let site: SiteContext
    let store: any AlertStore
    /// The write store's limits, counted once for the service (docs/replicas.md).
    let limits: any WriteStore
    let identity: ClientIdentity
    let gateway: AnnouncementGateway
    /// Wakes this replica's sender: a confirmation mail is due.
    let wake: @Sendable () -> Void
    /// Names a search's centre on the pages (`AlertMails.describe`).
    let places: PlaceFinder?
    let logger: Logger

    /// At most this many subscribe forms per client address an hour, for the service.
    static let subscribesPerAddress = LimitRule(bucket: "alert-subscribe", limit: 10, window: .seconds(3600))

    // MARK: - POST /alerts

    /// A subscribe form: an area search (`search`: the page's feed link) or a report's matches (`pet`).
    func subscribe(_ request: Request, requestID: String) async -> Response {
        let form = request.body.form ?? FormBody()
        let search = form["search"] ?? ""
        var language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        if let chosen = AlertHandlers.queryItems(search)["lang"].flatMap({ Language(rawValue: $0) }) {
            language = PageLanguage(language: chosen, explicit: true)
        }
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let frequency = AlertFrequency(rawValue: form["frequency"] ?? "") ?? .instant
        let petID = (form["pet"] ?? "").trimmingCharacters(in: .whitespaces)
        let target: AlertTarget
        if !petID.isEmpty {
            target = .matches(petID: petID)
        } else if let parsed = AlertHandlers.search(search) {
            target = .search(parsed)
        } else {
            return page(.needsPlace, language: language, status: .badRequest, form: AlertFormValues(email: email, search: search, petID: nil))
        }
        guard EmailRule.looksLikeAddress(email) else {
            var values = AlertFormValues(email: email, search: search, petID: petID.isEmpty ? nil : petID)
            values.frequency = frequency
            return page(.form(problem: .alertProblemEmail), language: language, status: .unprocessableContent, form: values)
        }
        do {
            let address = identity.address(peer: request.clientAddress, headers: request.headers)
            if case .refused(let retryAfter) = try await limits.take(AlertHandlers.subscribesPerAddress, key: address) {
                var response = page(
                    .form(problem: .alertProblemThrottled),
                    language: language,
                    status: .tooManyRequests,
                    form: AlertFormValues(email: email, search: search, petID: petID.isEmpty ? nil : petID)
                )
                response.headers[.retryAfter] = String(retryAfter)
                return response
            }
            let owed = try await store.subscribe(
                SubscriptionRequest(email: email, target: target, frequency: frequency, language: language.language.rawValue),
                now: site.days.date
            )
            // The same answer whether a mail is owed or not (no address enumeration); only the log,
            // without the address, says which.
            logger.info("alert subscription asked", metadata: ["request_id": "\(requestID)", "confirmation_owed": "\(owed != nil)"])
            if owed != nil { wake() }
            return page(.pending, language: language, status: .ok, form: nil)
        } catch {
            logger.error("alert store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            var response = page(
                .form(problem: .alertProblemStore),
                language: language,
                status: .serviceUnavailable,
                form: AlertFormValues(email: email, search: search, petID: petID.isEmpty ? nil : petID)
            )
            response.headers[.retryAfter] = String(Limits.storeRetryAfterSeconds)
            return response
        }
    }

    /// After the report form: when it made a report (201, `Location: /pets/{id}`) and its "E-mail me
    /// possible matches" was ticked with an e-mail, that report's matches are asked for (pending until
    /// confirmed, as every subscription). The result page is answered either way.
    func followMatches(made response: Response, _ request: Request, requestID: String) async -> Response {
        guard response.status == .created, let form = request.body.form, form["matchAlerts"] != nil,
            let location = response.headers[.location], let route = Route(path: location), route.kind == .details
        else { return response }
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard EmailRule.looksLikeAddress(email) else { return response }
        let id = route.id
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        do {
            let owed = try await store.subscribe(
                SubscriptionRequest(email: email, target: .matches(petID: id), frequency: .instant, language: language.language.rawValue),
                now: site.days.date
            )
            if owed != nil { wake() }
        } catch {
            logger.error(
                "alert store unavailable; the report's matches are not followed",
                metadata: ["request_id": "\(requestID)", "error": "\(error)"]
            )
        }
        return response
    }

    /// The area search of a feed link (`/pets.atom?lat=…&lng=…&range=…`): its canonical form, as
    /// `FeedSearch` makes it; nil when it has no place.
    static func search(_ link: String) -> AlertSearch? {
        let query = queryItems(link)
        guard let location = try? VisitorLocation.parse(query, defaultRangeKm: PageHandlers.listRangeKm), location.origin != nil,
            let filters = try? ListFilters.parse(query, located: true)
        else { return nil }
        let canonical = FeedSearch(filters: filters, location: location)
        guard let origin = canonical.location.origin else { return nil }
        return AlertSearch(
            latitude: origin.latitude,
            longitude: origin.longitude,
            rangeKm: canonical.location.rangeKm ?? PageHandlers.listRangeKm,
            status: canonical.filters.status,
            species: canonical.filters.species
        )
    }

    /// The query items of a link's `?…` part, percent-decoded.
    static func queryItems(_ link: String) -> QueryItems {
        guard let mark = link.firstIndex(of: "?") else { return QueryItems() }
        let pairs = link[link.index(after: mark)...].split(separator: "&").map { pair -> (name: String, value: String) in
            let halves = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (name: halves.first ?? "", value: halves.count > 1 ? halves[1] : "")
        }
        return QueryItems(pairs)
    }
}
