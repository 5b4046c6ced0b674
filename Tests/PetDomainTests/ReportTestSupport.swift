import Foundation
import PetDomain
import Testing

/// The day the report tests run "on", both for the visitor and for the backend unless a test says otherwise.
let reportToday = CalendarDate(year: 2026, month: 11, day: 26)!

/// A form draft every rule accepts, with `change` applied.
func reportDraft(_ change: (inout ReportDraft) -> Void = { _ in }) -> ReportDraft {
    var draft = ReportDraft(
        petName: "Max",
        species: "DOG",
        breed: "Golden Retriever",
        sex: "MALE",
        age: "5",
        description: "Friendly, answers to Max",
        microchipNumber: "12345-67890-12345",
        locationLatitude: "52.2297",
        locationLongitude: "21.0122",
        email: "owner@example.com",
        phone: "+48 123 456 789",
        lastSeenDate: "2026-11-20",
        status: "MISSING",
        reward: "500 PLN"
    )
    change(&draft)
    return draft
}

/// Validates `draft` on `reportToday` (or the given days).
func validateReport(
    _ draft: ReportDraft,
    localToday: CalendarDate = reportToday,
    upstreamToday: CalendarDate = reportToday
) -> Result<ValidReport, ReportRefusal> {
    ReportValidation.validate(draft, localToday: localToday, upstreamToday: upstreamToday)
}

/// The valid report for `draft`; records an issue and throws when it was refused.
func acceptedReport(_ draft: ReportDraft, sourceLocation: SourceLocation = #_sourceLocation) throws -> ValidReport {
    switch validateReport(draft) {
    case .success(let report):
        return report
    case .failure(let refusal):
        Issue.record("expected a valid report, got \(refusal.errors.map(\.message))", sourceLocation: sourceLocation)
        throw refusal
    }
}

/// The errors for `draft`, empty when it was accepted.
func reportErrors(
    _ draft: ReportDraft,
    localToday: CalendarDate = reportToday,
    upstreamToday: CalendarDate = reportToday
) -> [ReportFieldError] {
    if case .failure(let refusal) = validateReport(draft, localToday: localToday, upstreamToday: upstreamToday) {
        return refusal.errors
    }
    return []
}

/// The single error for `draft` (an issue is recorded when there is not exactly one).
func onlyError(_ draft: ReportDraft, sourceLocation: SourceLocation = #_sourceLocation) -> ReportFieldError? {
    let errors = reportErrors(draft)
    #expect(errors.count == 1, "errors: \(errors.map(\.message))", sourceLocation: sourceLocation)
    return errors.first
}

/// The errors for an API body.
func apiErrors(_ body: String) -> [ReportFieldError] {
    let result = ReportValidation.validate(jsonBody: Array(body.utf8), localToday: reportToday, upstreamToday: reportToday)
    if case .failure(let refusal) = result { return refusal.errors }
    return []
}

/// An API body every rule accepts, as JSON text, with `extra` members appended (a later key wins).
func apiBody(_ extra: String = "") -> String {
    """
    {"petName":"Max","species":"DOG","sex":"MALE","age":5,"locationLatitude":52.2297,\
    "locationLongitude":21.0122,"email":"owner@example.com","lastSeenDate":"2026-11-20",\
    "status":"MISSING"\(extra.isEmpty ? "" : "," + extra)}
    """
}
