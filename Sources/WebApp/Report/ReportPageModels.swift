import Mustache

// View models of the report flow (docs/report-flow.md): the form, its result, and the photo form.

/// One text field of the report form: what the visitor typed (kept across refusals) and the
/// problem with it, shown next to it.
@TemplateFields
struct FieldModel: Sendable {
    let value: String
    let error: String?
}

/// A radio button or option of the report form.
@TemplateFields
struct ChoiceModel: Sendable {
    let value: String
    let label: String
    let selected: Bool
    /// The element id (`report-sex-male`), for its label.
    let id: String
}

/// One line of the problem summary above the form: a link to the field.
@TemplateFields
struct FieldErrorModel: Sendable {
    /// The field's name (`data-field`).
    let field: String
    /// The id of the input it links to.
    let anchor: String
    let message: String
}

/// `GET /report` and a refused `POST /report`.
@TemplateFields
struct ReportFormModel: Sendable {
    let layout: LayoutModel
    let heading: String
    let isFound: Bool
    /// Where the form is sent: `/report`, with `lang` when the URL chose the language.
    let action: String
    /// A problem with the whole report (the upstream is down, too many reports): shown above it.
    let problem: String?
    /// "There are 2 problems with the report:" and the list, when fields were refused.
    let problemCount: String?
    /// The newest reports, linked when the outcome of a submission is unknown (look before sending again).
    var newestLink: String? = nil
    let errors: [FieldErrorModel]
    /// The unguessable reference of this form's submission (a second submission leads to the first's result).
    let submission: String
    /// The reference of a photo kept from an earlier submission, and the sentence saying so.
    let keptPhoto: String?
    let keptPhotoText: String?
    let statusOptions: [ChoiceModel]
    let statusError: String?
    let speciesOptions: [OptionModel]
    let speciesError: String?
    let sexOptions: [ChoiceModel]
    let sexError: String?
    let petName: FieldModel
    let breed: FieldModel
    let age: FieldModel
    let description: FieldModel
    let microchipNumber: FieldModel
    let lastSeenDate: FieldModel
    /// Today in the visitor's calendar (the date field's `max`).
    let today: String
    let locationLatitude: FieldModel
    let locationLongitude: FieldModel
    let email: FieldModel
    let phone: FieldModel
    let contactError: String?
    let reward: FieldModel
    let photoError: String?
    /// The tile URL template of the small map the script shows to tap the place.
    let tileURL: String
    /// "E-mail me possible matches for this pet" is ticked.
    var matchAlerts: Bool = false
}

/// The page after a report is made (never cached, never compressed: it holds the management code).
@TemplateFields
struct ReportResultModel: Sendable {
    let layout: LayoutModel
    let petID: String
    let petURL: String
    let shareURL: String
    let managementPassword: String
    /// False when the announcement was made but its photo could not be sent.
    let photoUploaded: Bool
    /// The retry form's target and kept photo.
    let retryAction: String
    let keptPhoto: String?
    /// "Is it one of these?": possible matches of the new report (docs/matching.md); nil when none.
    var matches: MatchSectionModel?
    /// `/pets/{id}/matches.atom` of the new report.
    var matchesFeedURL: String?
    /// The "E-mail me possible matches" form: its target and the report's e-mail, prefilled (docs/alerts.md).
    var alertEmail: String = ""
    var alertAction: String = "/alerts"
}

/// `GET /report/photo` and the retry form's refusals: replace a report's photo with its code.
@TemplateFields
struct PhotoFormModel: Sendable {
    let layout: LayoutModel
    let action: String
    let petID: String
    let problem: String?
    let codeError: String?
    let photoError: String?
    let keptPhoto: String?
    let keptPhotoText: String?
}

extension ReportFormModel: ViewModel {}
extension ReportResultModel: ViewModel {}
extension PhotoFormModel: ViewModel {}
