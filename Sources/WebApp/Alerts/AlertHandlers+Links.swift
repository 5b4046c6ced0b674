import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain

/// The pages of a mail's links. A GET only ever shows a page with a button (mail scanners open links);
/// only a POST confirms, stops or forgets. The one-click stop (RFC 8058) is a POST of
/// `List-Unsubscribe=One-Click` with no cookie and no Origin, answered 200, never a redirect.
extension AlertHandlers {
    /// `GET` or `POST /alerts/{action}/{token}`.
    func link(_ action: AlertAction, token: String, _ request: Request, requestID: String) async -> Response {
        let language = (try? PageLanguage.of(request)) ?? PageLanguage.fromHeader(request)
        let isPost = request.method == .post
        guard AlertTokens.isWellFormed(token) else { return page(.unknown, language: language, status: .notFound, form: nil) }
        let here = AlertLinks.path(.alert(action, token: token), language: language)
        do {
            let purpose: TokenPurpose =
                switch action {
                case .confirm: .confirm
                case .manage, .stop: .manage
                case .never: .never
                }
            guard let subscription = try await store.subscription(token: token, purpose: purpose) else {
                return page(.unknown, language: language, status: .notFound, form: nil)
            }
            let what = describe(subscription, language: language)
            let now = site.days.date
            switch (action, isPost) {
            case (.confirm, false):
                return page(.confirm(action: here, what: what), language: language, status: .ok, form: nil)
            case (.confirm, true):
                guard let confirmed = try await store.confirm(token: token, now: now) else {
                    return page(.unknown, language: language, status: .notFound, form: nil)
                }
                let manage = try await store.mintToken(subscriptionID: confirmed.id, purpose: .manage, now: now)
                logger.info("alert subscription confirmed", metadata: ["request_id": "\(requestID)"])
                return page(
                    .active(manageURL: AlertLinks.path(.alert(.manage, token: manage), language: language), what: what),
                    language: language,
                    status: .ok,
                    form: nil
                )
            case (.manage, false):
                return page(.manage(subscription, action: here, what: what, saved: false), language: language, status: .ok, form: nil)
            case (.manage, true):
                return try await manage(subscription, form: request.body.form ?? FormBody(), here: here, language: language, what: what)
            case (.stop, false):
                return page(.stopConfirm(action: here, what: what), language: language, status: .ok, form: nil)
            case (.stop, true):
                try await store.stop(subscriptionID: subscription.id)
                logger.info("alert subscription stopped", metadata: ["request_id": "\(requestID)"])
                return page(.stopped(what: what), language: language, status: .ok, form: nil)
            case (.never, false):
                return page(.neverConfirm(action: here), language: language, status: .ok, form: nil)
            case (.never, true):
                try await store.neverAgain(addressHash: subscription.addressHash)
                logger.info("alert address suppressed at its owner's request", metadata: ["request_id": "\(requestID)"])
                return page(.never, language: language, status: .ok, form: nil)
            }
        } catch {
            logger.error("alert store unavailable", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            var response = page(.storeDown, language: language, status: .serviceUnavailable, form: nil)
            response.headers[.retryAfter] = String(Limits.storeRetryAfterSeconds)
            return response
        }
    }

    /// The manage page's form: its `change` (frequency, range, language), `stop` or `forget` button.
    private func manage(_ subscription: Subscription, form: FormBody, here: String, language: PageLanguage, what: String) async throws -> Response {
        if form["stop"] != nil {
            try await store.stop(subscriptionID: subscription.id)
            return page(.stopped(what: what), language: language, status: .ok, form: nil)
        }
        if form["forget"] != nil {
            try await store.forget(addressHash: subscription.addressHash)
            return page(.forgotten, language: language, status: .ok, form: nil)
        }
        let frequency = AlertFrequency(rawValue: form["frequency"] ?? "")
        let range = form["range"].flatMap(Int.init).flatMap { AlertSearch.offeredRangesKm.contains($0) ? $0 : nil }
        let mailLanguage = form["language"].flatMap(Language.init(rawValue:))
        try await store.update(subscriptionID: subscription.id, frequency: frequency, rangeKm: range, language: mailLanguage?.rawValue)
        var updated = subscription
        if let frequency { updated.frequency = frequency }
        if let mailLanguage { updated.language = mailLanguage.rawValue }
        if let range, case .search(var search) = updated.target {
            search.rangeKm = range
            updated.target = .search(search)
        }
        let described = describe(updated, language: language)
        return page(.manage(updated, action: here, what: described, saved: true), language: language, status: .ok, form: nil)
    }

    /// What a subscription follows, in words, in the page's language.
    func describe(_ subscription: Subscription, language: PageLanguage) -> String {
        AlertMails.describe(subscription, texts: site.renderer.texts(language), index: gateway.freshSnapshot()?.value.index, places: places)
    }
}
