import Foundation
import HTTPTypes
import PetDomain

/// A report made upstream, as the result page shows it. Kept in memory for an hour under its
/// form's submission reference (`WriteStore.claim`), so the same form sent again (a
/// double click, a refresh of the POST) shows this result instead of making a second report.
/// The management code lives only here and on the result page: never in a URL, a log line, a
/// metric or an HTTP cache.
struct ReportRecord: Sendable {
    let id: String
    let managementPassword: String
    /// False when the announcement was made but its photo could not be sent.
    var photoUploaded: Bool
    /// The photo kept for the retry form while `photoUploaded` is false.
    var keptPhoto: String?
    /// The report as matching reads it, for the result page's possible matches (docs/matching.md).
    var pet: Announcement?
}

/// What one form submission came to.
enum ReportAttempt: Sendable {
    /// The report exists upstream.
    case made(ReportRecord)
    /// Nothing was made: the form comes back with this state and status.
    case refused(HTTPResponse.Status, ReportFormState, retryAfter: Int?)
}

/// A report form as it comes back to the visitor: every value kept, each problem by field.
struct ReportFormState: Sendable {
    var draft: ReportDraft
    /// Problems by field name (`contact` for the pair of phone and e-mail, `photo` for the file).
    var errors: [(field: String, message: String)] = []
    /// A problem with the whole report (upstream down, too many reports).
    var problem: String?
    /// The photo kept from this submission (reference and the file name the visitor chose).
    var keptPhoto: (reference: String, name: String)?
    /// The submission reference the form carries again.
    var submission: String
    /// "E-mail me possible matches" was ticked (kept across refusals, docs/alerts.md).
    var matchAlerts = false
}

/// A photo made safe and kept while its report is corrected or its upload retried.
struct KeptPhoto: Sendable {
    let photo: ReportPhotos.SafePhoto
    /// The file name the visitor chose (for "Your photo “dog.jpg” is kept").
    let name: String
}
