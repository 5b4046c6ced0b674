import Foundation

/// The backend's error codes for a refused report (docs/report-validation.md, "The backend's rules").
public enum ReportErrorCode: String, Sendable, Equatable, CaseIterable {
    /// A required field is absent or blank; also a body that is not a JSON object (the backend says "Required").
    case missingValue = "MISSING_VALUE"
    /// A field is present but breaks its rule (type, range, pattern).
    case invalidFormat = "INVALID_FORMAT"
    /// A key the backend does not know (`photoUrl`, `id`, …); `field` is that key.
    case invalidField = "INVALID_FIELD"
    /// Neither e-mail nor phone was given; `field` is `contact`.
    case missingContact = "MISSING_CONTACT"
}

/// What exactly is wrong with one field, precise enough for the form to say it in the visitor's language.
public enum ReportProblem: Sendable, Equatable {
    /// A required field is empty (or absent, or `null` in API JSON).
    case required
    /// Longer than `max` characters (Swift `Character`s, as the read side counts a pet name).
    case tooLong(max: Int)
    /// Not a decimal number (`abc`, `nan`, `0x10`); or, in API JSON, a string where a number is expected.
    case notANumber
    /// A number outside `min...max` (coordinates).
    case outOfRange(min: Double, max: Double)
    /// A number with a fraction where a whole number is needed (age `2.5`).
    case notWholeNumber
    /// A whole number outside `min...max` (age; 0 is refused by the backend).
    case ageRange(min: Int, max: Int)
    /// Something other than digits, spaces and dashes (microchip).
    case digitsOnly
    /// More than `max` digits (microchip).
    case tooManyDigits(max: Int)
    /// Not an e-mail address by the backend's pattern and the read side's `EmailRule`.
    case invalidEmail
    /// A phone number without a single digit.
    case phoneNeedsDigit
    /// Neither e-mail nor phone (field `contact`).
    case contactMissing
    /// Not a real `YYYY-MM-DD` date.
    case invalidDate
    /// After the visitor's own today.
    case dateInFuture
    /// The visitor's today, but the backend's (UTC) date is still `serverToday`: it would refuse the report.
    case dateAfterUpstreamToday(serverToday: CalendarDate)
    /// Not one of `allowed` (species, sex, status); sex UNKNOWN is allowed for found pets only.
    case unknownChoice(allowed: [String])
    /// A reward the pages could not show as an amount with an optional currency (`500 PLN`, `$300`).
    case notAnAmount
    /// API JSON: a number, boolean, array or object where the backend expects a string.
    case notText
    /// API JSON: a key the backend does not accept.
    case unknownField
    /// API JSON: the body is not a JSON object.
    case notAnObject
}

/// One refused field: the backend's `field` and `code`, and the precise problem for the form.
public struct ReportFieldError: Sendable, Equatable {
    /// The upstream JSON key (`age`, …), `contact` for a missing contact, or "" for the whole body.
    public let field: String
    /// The backend's error code, for the API's error body.
    public let code: ReportErrorCode
    /// What is wrong, for a localized message next to the field.
    public let problem: ReportProblem

    /// Creates an error.
    public init(field: String, code: ReportErrorCode, problem: ReportProblem) {
        self.field = field
        self.code = code
        self.problem = problem
    }
}

/// Why a report was refused: every field error, in the backend's key order (`ReportDraft.fieldNames`),
/// then unknown keys, then `contact`. Never empty.
public struct ReportRefusal: Error, Sendable, Equatable {
    /// All errors; the form shows each next to its field.
    public let errors: [ReportFieldError]

    /// Creates a refusal; `errors` must not be empty.
    public init(errors: [ReportFieldError]) {
        precondition(!errors.isEmpty, "a refusal names at least one error")
        self.errors = errors
    }

    /// The error the API answers with: the backend reports only the first problem.
    public var first: ReportFieldError { errors[0] }

    /// The errors of one field (at most one per field today), for the form.
    public func errors(for field: String) -> [ReportFieldError] {
        errors.filter { $0.field == field }
    }
}
