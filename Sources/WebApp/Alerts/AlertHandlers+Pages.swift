import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain

/// The values of a subscribe form shown again (what the visitor typed is kept).
struct AlertFormValues: Sendable {
    var email: String
    var search: String?
    var petID: String?
    var frequency: AlertFrequency = .instant
}

/// Which alert page to show (one template, `alert.mustache`, a section each).
enum AlertPage: Sendable {
    case form(problem: TextKey)
    case needsPlace
    case pending
    case confirm(action: String, what: String)
    case active(manageURL: String, what: String)
    case manage(Subscription, action: String, what: String, saved: Bool)
    case stopConfirm(action: String, what: String)
    case stopped(what: String)
    case neverConfirm(action: String)
    case never
    case forgotten
    case unknown
    case storeDown
}

extension AlertHandlers {
    /// Renders `kind` as a private page (`CachePolicy.private`, as the report pages: never kept nor compressed).
    func page(_ kind: AlertPage, language: PageLanguage, status: HTTPResponse.Status, form: AlertFormValues?) -> Response {
        let texts = site.renderer.texts(language)
        let heading = AlertHandlers.heading(kind, texts: texts)
        let layout = site.layout(
            title: texts(.pageTitle, ("title", heading)),
            description: heading,
            canonicalPath: nil,
            location: .unknown(language),
            pageURL: { QueryString.url(Route.list.path, $0.linkItems) }
        )
        var model = AlertPageModel(layout: layout)
        switch kind {
        case .form(let problem):
            model.isForm = true
            model.problem = texts(problem)
        case .needsPlace:
            model.isNeedsPlace = true
        case .pending:
            model.isPending = true
        case .confirm(let action, let what):
            model.isConfirm = true
            model.action = action
            model.what = what
        case .active(let manageURL, let what):
            model.isActive = true
            model.manageURL = manageURL
            model.what = what
        case .manage(let subscription, let action, let what, let saved):
            model.isManage = true
            model.action = action
            model.what = what
            model.saved = saved
            model.frequencyOptions = AlertHandlers.frequencyChoices(texts: texts, chosen: subscription.frequency)
            if case .search(let search) = subscription.target {
                model.hasRanges = true
                model.rangeOptions = AlertSearch.offeredRangesKm.map {
                    OptionModel(value: String($0), label: texts(.alertRangeOption, ("range", String($0))), selected: $0 == search.rangeKm)
                }
            }
            model.languageOptions = Language.allCases.map {
                OptionModel(
                    value: $0.rawValue,
                    label: texts($0 == .en ? .languageEnglish : .languagePolish),
                    selected: $0.rawValue == subscription.language
                )
            }
        case .stopConfirm(let action, let what):
            model.isStopConfirm = true
            model.action = action
            model.what = what
        case .stopped(let what):
            model.isStopped = true
            model.what = what
        case .neverConfirm(let action):
            model.isNeverConfirm = true
            model.action = action
        case .never:
            model.isNever = true
        case .forgotten:
            model.isForgotten = true
        case .unknown:
            model.isUnknown = true
        case .storeDown:
            model.problem = texts(.alertProblemStore)
        }
        if let form {
            model.frequencyOptions = AlertHandlers.frequencyChoices(texts: texts, chosen: form.frequency)
            model.email = form.email
            model.search = form.search
            model.petID = form.petID
            model.subscribeAction = AlertLinks.path(.alerts, language: language)
        }
        model.heading = heading
        model.listURL = layout.listURL
        return ReportHandlers.private(site.renderer.page(model, template: "alert", language: language, status: status))
    }
}

extension AlertHandlers {
    /// The frequency radio buttons of the subscribe and manage forms.
    static func frequencyChoices(texts: Texts, chosen: AlertFrequency) -> [ChoiceModel] {
        AlertFrequency.allCases.map { frequency in
            ChoiceModel(
                value: frequency.rawValue,
                label: texts(frequency == .instant ? .alertFrequencyInstant : .alertFrequencyDaily),
                selected: frequency == chosen,
                id: "alert-" + frequency.rawValue
            )
        }
    }

    /// The page's heading (and title).
    static func heading(_ kind: AlertPage, texts: Texts) -> String {
        switch kind {
        case .form, .needsPlace: texts(.alertFormTitle)
        case .pending: texts(.alertPendingTitle)
        case .confirm: texts(.alertConfirmTitle)
        case .active: texts(.alertActiveTitle)
        case .manage: texts(.alertManageTitle)
        case .stopConfirm: texts(.alertStopTitle)
        case .stopped: texts(.alertStoppedTitle)
        case .neverConfirm, .never: texts(.alertNeverTitle)
        case .forgotten: texts(.alertForgottenTitle)
        case .unknown, .storeDown: texts(.alertUnknownTitle)
        }
    }
}

/// Every alert page (`alert.mustache`): one section per state.
@TemplateFields
package struct AlertPageModel: Sendable {
    package var layout: LayoutModel
    package var heading: String = ""
    /// What the subscription follows, in words.
    package var what: String? = nil
    /// A problem with the form (shown above it, `role=alert`).
    package var problem: String? = nil
    /// Where the page's button posts (its own link).
    package var action: String = ""
    package var manageURL: String? = nil
    package var listURL: String = "/pets"
    package var isForm = false
    package var isNeedsPlace = false
    package var isPending = false
    package var isConfirm = false
    package var isActive = false
    package var isManage = false
    package var isStopConfirm = false
    package var isStopped = false
    package var isNeverConfirm = false
    package var isNever = false
    package var isForgotten = false
    package var isUnknown = false
    package var saved = false
    /// The subscribe form shown again.
    package var subscribeAction: String = "/alerts"
    package var email: String = ""
    package var search: String? = nil
    package var petID: String? = nil
    package var frequencyOptions: [ChoiceModel] = []
    package var rangeOptions: [OptionModel] = []
    /// True for an area alert (its radius can be changed).
    package var hasRanges = false
    package var languageOptions: [OptionModel] = []
}

extension AlertPageModel: ViewModel {}
