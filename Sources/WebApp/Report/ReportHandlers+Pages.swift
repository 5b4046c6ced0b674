import Foundation
import HTTPTypes
import MicroHTTP
import PetDomain

/// The report flow's pages, rendered from a form state or a made report. None is kept or shared:
/// each holds a fresh reference (the form) or the management code (the result), so each says
/// `Cache-Control: no-store` and is made for its request only.
extension ReportHandlers {
    /// The form, with every value of `state` and its problems next to their fields.
    func formPage(_ state: ReportFormState, status: HTTPResponse.Status, location: VisitorLocation, newestLink: String? = nil) -> Response {
        let language = location.language
        let texts = site.texts(language)
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
            tileURL: Route.tilePattern
        )
        return ReportHandlers.private(site.page(model, template: "report", language: language, status: status))
    }

    /// The result of a made report: the pet's page, the share link and the management code.
    func resultPage(_ record: ReportRecord, language: PageLanguage, status: HTTPResponse.Status) -> Response {
        let texts = site.texts(language)
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
            petURL: SiteContext.withLanguage(petPath, language),
            shareURL: site.baseURL + SiteContext.withLanguage(petPath, language),
            managementPassword: record.managementPassword,
            photoUploaded: record.photoUploaded,
            retryAction: QueryString.url(Route.reportPhoto.path, language.linkItems),
            keptPhoto: record.keptPhoto
        )
        model.matches = site.reportMatches(record, gateway: service.gateway, language: language)
        model.matchesFeedURL = record.pet.flatMap { SiteContext.matchesFeedURL($0, language: language) }
        var response = site.page(model, template: "report-result", language: language, status: status)
        if status == .created { response.headers[.location] = petPath }
        return ReportHandlers.private(response)
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
    /// A report page is for its visitor only (`ReusePolicy.private`), and never sent elsewhere in a
    /// `Referer`: `same-origin`, not `no-referrer`, because under `no-referrer` a browser sends
    /// `Origin: null` with the page's own form POST, which `ClientIdentity.isCrossSite` (rightly)
    /// refuses with 403.
    static func `private`(_ response: Response) -> Response {
        var copy = ReusePolicy.private(response)
        copy.headers[.referrerPolicy] = "same-origin"
        return copy
    }
}
