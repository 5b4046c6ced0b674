import Mustache

// View models of the report flow (docs/report-flow.md): the form, its result, and the photo form.

/// One text field of the report form: what the visitor typed (kept across refusals) and the
/// problem with it, shown next to it.
@TemplateFields
package struct FieldModel: Sendable {
    package let value: String
    package let error: String?
}

/// A radio button or option of the report form.
@TemplateFields
package struct ChoiceModel: Sendable {
    package let value: String
    package let label: String
    package let selected: Bool
    /// The element id (`report-sex-male`), for its label.
    package let id: String
}

/// One line of the problem summary above the form: a link to the field.
@TemplateFields
package struct FieldErrorModel: Sendable {
    /// The field's name (`data-field`).
    package let field: String
    /// The id of the input it links to.
    package let anchor: String
    package let message: String
}

/// `GET /report` and a refused `POST /report`.
@TemplateFields
package struct ReportFormModel: Sendable {
    package let layout: LayoutModel
    package let heading: String
    package let isFound: Bool
    /// Where the form is sent: `/report`, with `lang` when the URL chose the language.
    package let action: String
    /// A problem with the whole report (the upstream is down, too many reports): shown above it.
    package let problem: String?
    /// "There are 2 problems with the report:" and the list, when fields were refused.
    package let problemCount: String?
    /// The newest reports, linked when the outcome of a submission is unknown (look before sending again).
    package var newestLink: String? = nil
    package let errors: [FieldErrorModel]
    /// The unguessable reference of this form's submission (a second submission leads to the first's result).
    package let submission: String
    /// The reference of a photo kept from an earlier submission, and the sentence saying so.
    package let keptPhoto: String?
    package let keptPhotoText: String?
    package let statusOptions: [ChoiceModel]
    package let statusError: String?
    package let speciesOptions: [OptionModel]
    package let speciesError: String?
    package let sexOptions: [ChoiceModel]
    package let sexError: String?
    package let petName: FieldModel
    package let breed: FieldModel
    package let age: FieldModel
    package let description: FieldModel
    package let microchipNumber: FieldModel
    package let lastSeenDate: FieldModel
    /// Today in the visitor's calendar (the date field's `max`).
    package let today: String
    package let locationLatitude: FieldModel
    package let locationLongitude: FieldModel
    package let email: FieldModel
    package let phone: FieldModel
    package let contactError: String?
    package let reward: FieldModel
    package let photoError: String?
    /// The tile URL template of the small map the script shows to tap the place.
    package let tileURL: String
    /// "E-mail me possible matches for this pet" is ticked.
    package var matchAlerts: Bool = false
}

/// The page after a report is made (never cached, never compressed: it holds the management code).
@TemplateFields
package struct ReportResultModel: Sendable {
    package let layout: LayoutModel
    package let petID: String
    package let petURL: String
    package let shareURL: String
    package let managementPassword: String
    /// False when the announcement was made but its photo could not be sent.
    package let photoUploaded: Bool
    /// The retry form's target and kept photo.
    package let retryAction: String
    package let keptPhoto: String?
    /// "Is it one of these?": possible matches of the new report (docs/matching.md); nil when none.
    package var matches: MatchSectionModel?
    /// `/pets/{id}/matches.atom` of the new report.
    package var matchesFeedURL: String?
    /// The "E-mail me possible matches" form: its target and the report's e-mail, prefilled (docs/alerts.md).
    package var alertEmail: String = ""
    package var alertAction: String = "/alerts"
}

/// `GET /report/photo` and the retry form's refusals: replace a report's photo with its code.
@TemplateFields
package struct PhotoFormModel: Sendable {
    package let layout: LayoutModel
    package let action: String
    package let petID: String
    package let problem: String?
    package let codeError: String?
    package let photoError: String?
    package let keptPhoto: String?
    package let keptPhotoText: String?
}

extension ReportFormModel: ViewModel {}
extension ReportResultModel: ViewModel {}
extension PhotoFormModel: ViewModel {}
