import Foundation

/// The server's rules for a report, checked before anything is sent upstream: the backend's rules
/// plus the PetSpot apps' limits (docs/report-validation.md), so a refusal can be shown next to its field.
public enum ReportValidation {
    /// The highest accepted age in years (the apps' limit; the backend only asks for > 0).
    public static let maximumAge = 40
    /// The longest description, in characters (the apps' limit; the backend has none).
    public static let maximumDescriptionLength = 500
    /// The longest breed, name and reward the web form takes, in characters (`ReportLimits.webForm`).
    public static let maximumShortTextLength = 100
    /// The most microchip digits (ISO 11784 chips have 15).
    public static let maximumMicrochipDigits = 15
    /// The longest phone number, in characters.
    public static let maximumPhoneLength = 30

    /// Checks a form's draft. `localToday` is the visitor's calendar day; `upstreamToday` is the day in
    /// UTC, which the backend compares `lastSeenDate` with; `limits` are the client's (the web form's
    /// unless told). Every problem is returned, in the backend's key order, then `contact`.
    public static func validate(
        _ draft: ReportDraft,
        localToday: CalendarDate,
        upstreamToday: CalendarDate,
        limits: ReportLimits = .webForm
    ) -> Result<ValidReport, ReportRefusal> {
        var rules = ReportRules(draft: draft, localToday: localToday, upstreamToday: upstreamToday, limits: limits)
        let report = rules.run()
        if let report, rules.errors.isEmpty { return .success(report) }
        return .failure(ReportRefusal(errors: rules.errors))
    }

    /// Checks an API body (`POST /api/v1/announcements`) with the API's limits (`ReportLimits.api`): the
    /// body's type problems and the field rules together, in the backend's key order, then unknown keys,
    /// then `contact`; the API answers with the first, as the backend does.
    public static func validate(
        jsonBody: [UInt8],
        localToday: CalendarDate,
        upstreamToday: CalendarDate
    ) -> Result<ValidReport, ReportRefusal> {
        guard let json = JSONValue.parse(Data(jsonBody)) else {
            return .failure(ReportRefusal(errors: [ReportFieldError(field: "", code: .missingValue, problem: .notAnObject)]))
        }
        let (draft, typeErrors) = ReportDraft.decode(json)
        if typeErrors.contains(where: { $0.problem == .notAnObject }) { return .failure(ReportRefusal(errors: typeErrors)) }
        if typeErrors.isEmpty { return validate(draft, localToday: localToday, upstreamToday: upstreamToday, limits: .api) }

        // A field with a wrong type was left empty in the draft: its "required" (and a "no contact"
        // caused by an e-mail sent as a number) would only repeat the type error.
        let mistyped = Set(typeErrors.map(\.field))
        var ruleErrors: [ReportFieldError] = []
        if case .failure(let refusal) = validate(draft, localToday: localToday, upstreamToday: upstreamToday, limits: .api) {
            ruleErrors = refusal.errors.filter { error in
                !mistyped.contains(error.field)
                    && !(error.code == .missingContact && (mistyped.contains("email") || mistyped.contains("phone")))
            }
        }
        return .failure(ReportRefusal(errors: ordered(typeErrors + ruleErrors)))
    }

    /// Errors in the backend's order: fields by `ReportDraft.fieldNames`, then unknown keys (in the
    /// order given), then `contact` (the backend checks it on the whole object, after every field).
    static func ordered(_ errors: [ReportFieldError]) -> [ReportFieldError] {
        func rank(_ error: ReportFieldError) -> Int {
            if error.code == .missingContact { return ReportDraft.fieldNames.count + 1 }
            return ReportDraft.fieldNames.firstIndex(of: error.field) ?? ReportDraft.fieldNames.count
        }
        // Sorted by (rank, position) so equal ranks keep their order whatever the sort's stability.
        return errors.enumerated()
            .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element)
    }
}
