import Foundation

extension ReportFieldError {
    /// An English message for the API's error body, in the backend's wording where
    /// docs/report-validation.md quotes it ("age must be a positive integer", "email format is invalid").
    /// Pages use `problem` with their own catalogs instead.
    public var message: String {
        switch problem {
        case .required: "\(field) cannot be empty"
        case .tooLong(let max): "\(field) must be at most \(max) characters"
        case .notANumber: field == "age" ? "age must be a positive integer" : "\(field) must be a number"
        case .outOfRange(let min, let max): "\(field) must be between \(Self.plain(min)) and \(Self.plain(max))"
        case .notWholeNumber: "\(field) must be a positive integer"
        case .ageRange(let min, let max): "\(field) must be a positive integer from \(min) to \(max)"
        case .digitsOnly: "\(field) must contain digits only"
        case .tooManyDigits(let max): "\(field) must have at most \(max) digits"
        case .invalidEmail: "email format is invalid"
        case .phoneNeedsDigit: "invalid phone format"
        case .contactMissing: "either email or phone must be provided"
        case .invalidDate: "\(field) must be a date in YYYY-MM-DD format"
        case .dateInFuture: "\(field) cannot be in the future"
        case .dateAfterUpstreamToday(let serverToday):
            "\(field) cannot be after \(serverToday.isoString), the server's date (UTC)"
        case .unknownChoice(let allowed): "\(field) must be one of \(allowed.joined(separator: ", "))"
        case .notAnAmount: "\(field) must be an amount with an optional currency, such as 500 PLN"
        case .notText: "\(field) must be a string"
        case .unknownField: "Unrecognized key: \(field)"
        case .notAnObject: "Required"
        }
    }

    /// `90` rather than `90.0`: the limits are whole degrees.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
