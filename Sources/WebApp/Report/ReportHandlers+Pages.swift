import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetDomain
import ReportStore

/// The report flow's pages, rendered from a form state or a made report. None is kept or shared:
/// each holds a fresh reference (the form) or the management code (the result), so each says
/// `Cache-Control: no-store` and is made for its request only.
extension ReportHandlers {
    /// The form, with every value of `state` and its problems next to their fields.
    func formPage(_ state: ReportFormState, status: HTTPResponse.Status, location: VisitorLocation, newestLink: String? = nil) -> Response {
        let language = location.language
        let texts = site.renderer.texts(language)
        let draft = state.draft
        let isFound = draft.status.trimmingCharacters(in: .whitespaces).uppercased() == "FOUND"
        let title = texts(isFound ? .reportTitleFound : .reportTitleMissing)
        func error(_ field: String) -> String? { state.errors.first { $0.field == field }?.message }
        func field(_ name: String, _ value: String) -> FieldModel { FieldModel(value: value, error: error(name)) }
        let chosenSpecies = draft.species.trimmingCharacters(in: .whitespaces).uppercased()
        let chosenSex = draft.sex.trimmingCharacters(in: .whitespaces).uppercased()
        let chosenStatus = draft.status.trimmingCharacters(in: .whitespaces).uppercased()
        var layout = site.layout(
            title: texts(.pageTitle, ("title", title)),
            description: texts(.reportDescription),
            canonicalPath: Route.report.path,
            location: location,
            pageURL: { QueryString.url(Route.report.path, $0.linkItems + (isFound ? [("status", "found")] : [])) }
        )
        layout.isReport = true
        let sexes: [(String, TextKey)] =
            [("MALE", .reportSexMale), ("FEMALE", .reportSexFemale)]
            + (isFound ? [("UNKNOWN", .reportSexUnknown)] : [])
        let model = ReportFormModel(
            layout: layout,
            heading: title,
            isFound: isFound,
            action: QueryString.url(Route.report.path, language.linkItems),
            problem: state.problem,
            problemCount: state.errors.isEmpty ? nil : texts.counted(.reportProblems, state.errors.count),
            newestLink: newestLink,
            errors: state.errors.map { FieldErrorModel(field: $0.field, anchor: ReportHandlers.anchor($0.field), message: $0.message) },
            submission: state.submission,
            keptPhoto: state.keptPhoto?.reference,
            keptPhotoText: state.keptPhoto.map { texts(.reportPhotoKept, ("name", $0.name)) },
            statusOptions: [("MISSING", TextKey.reportStatusMissing), ("FOUND", .reportStatusFound)].map { value, key in
                ChoiceModel(value: value, label: texts(key), selected: value == chosenStatus, id: "report-status-" + value.lowercased())
            },
            statusError: error("status"),
            speciesOptions: [OptionModel(value: "", label: texts(.reportSpeciesChoose), selected: chosenSpecies.isEmpty)]
                + Species.allCases.map { OptionModel(value: $0.apiValue, label: texts.species($0), selected: $0.apiValue == chosenSpecies) },
            speciesError: error("species"),
            sexOptions: sexes.map { value, key in
                ChoiceModel(value: value, label: texts(key), selected: value == chosenSex, id: "report-sex-" + value.lowercased())
            },
            sexError: error("sex"),
            petName: field("petName", draft.petName),
            breed: field("breed", draft.breed),
            age: field("age", draft.age),
            description: field("description", draft.description),
            microchipNumber: field("microchipNumber", draft.microchipNumber),
            lastSeenDate: field("lastSeenDate", draft.lastSeenDate),
            today: site.days.reportToday.local.isoString,
            locationLatitude: field("locationLatitude", draft.locationLatitude),
            locationLongitude: field("locationLongitude", draft.locationLongitude),
            email: field("email", draft.email),
            phone: field("phone", draft.phone),
            contactError: error("contact"),
            reward: field("reward", draft.reward),
            photoError: error("photo"),
            tileURL: Route.tilePattern,
            matchAlerts: state.matchAlerts
        )
        return ReportHandlers.private(site.renderer.page(model, template: "report", language: language, status: status))
    }

    /// The result of a made report: the pet's page, the share link and the management code.
    func resultPage(_ record: ReportRecord, language: PageLanguage, status: HTTPResponse.Status) -> Response {
        let texts = site.renderer.texts(language)
        var layout = site.layout(
            title: texts(.pageTitle, ("title", texts(.resultTitle))),
            description: texts(.reportDescription),
            canonicalPath: nil,
            location: .unknown(language),
            pageURL: { QueryString.url(Route.report.path, $0.linkItems) }
        )
        layout.isReport = true
        let petPath = Route.details(id: record.id).path
        var model = ReportResultModel(
            layout: layout,
            petID: record.id,
            petURL: LayoutBuilder.withLanguage(petPath, language),
            shareURL: site.layout.baseURL + LayoutBuilder.withLanguage(petPath, language),
            managementPassword: record.managementPassword,
            photoUploaded: record.photoUploaded,
            retryAction: QueryString.url(Route.reportPhoto.path, language.linkItems),
            keptPhoto: record.keptPhoto
        )
        model.matches = site.reportMatches(record, gateway: service.gateway, language: language)
        model.matchesFeedURL = record.pet.flatMap { SiteContext.matchesFeedURL($0, language: language) }
        model.alertEmail = record.pet?.email ?? ""
        model.alertAction = AlertLinks.path(.alerts, language: language)
        var response = site.renderer.page(model, template: "report-result", language: language, status: status)
        if status == .created { response.headers[.location] = petPath }
        return ReportHandlers.private(response)
    }

    /// The result a repeat is shown: the code opened with the form's reference, and the report as the
    /// form sent again describes it. The store keeps no copy of the report, and this replica's snapshot
    /// may not list it yet (another replica made it, or its photo has not gone up: the backend lists a
    /// report once it has one), so the form is what the result page's possible matches read then;
    /// the snapshot's copy wins once it is there (`SiteContext.reportMatches`).
    func opened(_ record: SubmissionRecord, key: SubmissionKey, form: FormBody) -> ReportRecord {
        let code = SubmissionSeal.open(record.sealed, for: key).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var made = ReportRecord(id: record.petID, managementPassword: code, photoUploaded: record.photoUploaded, keptPhoto: record.keptPhoto)
        let today = site.days.reportToday
        let draft = ReportDraft(fields: form.fields)
        if case .success(let valid) = ReportValidation.validate(draft, localToday: today.local, upstreamToday: today.upstream) {
            made.pet = valid.announcement(id: record.petID, createdAt: site.days.date)
        }
        return made
    }

    /// The form back with every value and a problem, for a submission that cannot go on now.
    func problemPage(form: FormBody, submission: String, language: PageLanguage, key: TextKey, status: HTTPResponse.Status) -> Response {
        var state = ReportFormState(draft: ReportDraft(fields: form.fields), submission: submission)
        state.matchAlerts = form["matchAlerts"] != nil
        state.problem = site.renderer.texts(language)(key)
        return formPage(state, status: status, location: .unknown(language))
    }

    /// A repeat of a submission whose upstream create timed out or whose replica died while sending:
    /// whether the report exists cannot be known, so it is never made again automatically; the visitor
    /// is sent to the newest reports to look first.
    func unknownOutcomePage(form: FormBody, submission: String, language: PageLanguage) -> Response {
        var state = ReportFormState(draft: ReportDraft(fields: form.fields), submission: submission)
        state.matchAlerts = form["matchAlerts"] != nil
        state.problem = site.renderer.texts(language)(.reportProblemUnknown)
        return formPage(state, status: .conflict, location: .unknown(language), newestLink: ReportHandlers.newestLink(language))
    }

    static func newestLink(_ language: PageLanguage) -> String {
        QueryString.url(Route.list.path, [("sort", Optional("newest"))] + language.linkItems)
    }

    /// The store is down or too slow (`HTTPError.storeDown`: 503 with `Retry-After`), the form back with
    /// every value, nothing sent upstream (the write path fails closed): a page, not the error page.
    func storeDown(_ error: WriteStoreUnavailable, form: FormBody, submission: String, language: PageLanguage, requestID: String) -> Response {
        logger.error(
            "write store unavailable",
            metadata: ["operation": "\(error.operation)", "detail": "\(error.detail)", "request_id": "\(requestID)"]
        )
        let down = HTTPError.storeDown
        var response = problemPage(form: form, submission: submission, language: language, key: .reportProblemStore, status: down.status)
        if let seconds = down.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    /// The id of the input a field's problem links to from the summary.
    static func anchor(_ field: String) -> String {
        switch field {
        case "status": "report-status-missing"
        case "sex": "report-sex-male"
        case "contact": "report-phone"
        default: "report-" + field
        }
    }
}

extension ReportHandlers {
    /// A report page is for its visitor only (its route is private: `RouteEntry.Privacy`), and never sent elsewhere in a
    /// `Referer`: `same-origin`, not `no-referrer`, because under `no-referrer` a browser sends
    /// `Origin: null` with the page's own form POST, which `ClientIdentity.isCrossSite` (rightly)
    /// refuses with 403.
    static func `private`(_ response: Response) -> Response {
        var copy = response
        copy.headers[.referrerPolicy] = "same-origin"
        return copy
    }
}
