import Foundation

@testable import PetDomain

/// The report's parsing and validation (docs/report-validation.md), fed twice per input: as an API
/// body (`ReportValidation.validate(jsonBody:…)`, `ReportDraft(jsonBody:)`) and as form fields
/// (`name=value` lines → `ReportDraft(fields:)` → `validate`). Invariants: a refusal always names at
/// least one problem, each on a known field; an accepted report's `upstreamJSON()` is a JSON object with
/// only the backend's keys and no `null` or `""`; and that body, validated again as an API body, is
/// accepted as the very same report (nothing the backend would refuse, nothing changed on the way).
///
/// Multipart bodies themselves are the `multipart` target (`MultipartTarget.swift`): libmicrohttpd's
/// post processor and `BodyReader` on a daemon in the fuzzing process.
enum ReportTarget {
    /// Fixed days, so a run is reproducible (the date rules compare with them, never with the clock).
    static let localToday = CalendarDate(iso: "2025-11-26")!
    static let upstreamToday = CalendarDate(iso: "2025-11-25")!

    static func run(_ bytes: [UInt8]) {
        let fromJSON = ReportValidation.validate(jsonBody: bytes, localToday: localToday, upstreamToday: upstreamToday)
        check(fromJSON, fromForm: false)
        // The throwing reader agrees with the validator about the body's type problems.
        if case .success = fromJSON {
            expect((try? ReportDraft(jsonBody: bytes)) != nil, "an accepted body has type problems for ReportDraft(jsonBody:)")
        }
        let fields = formFields(text(bytes))
        let draft = ReportDraft(fields: fields)
        check(ReportValidation.validate(draft, localToday: localToday, upstreamToday: upstreamToday), fromForm: true)
        // Names that are not fields (photo, submission, …) change nothing.
        let noise = fields + [("photo", "x"), ("submission", "y"), ("keptPhoto", "z")]
        expect(ReportDraft(fields: noise) == draft, "a non-field name changed the draft")
    }

    /// `name=value` lines (the first `=` splits); a line without `=` is a name with an empty value.
    static func formFields(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            guard let equals = line.firstIndex(of: "=") else { return (String(line), "") }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    static func check(_ result: Result<ValidReport, ReportRefusal>, fromForm: Bool) {
        switch result {
        case .failure(let refusal):
            expect(!refusal.errors.isEmpty, "a refusal without a problem")
            if fromForm {
                for error in refusal.errors {
                    expect(
                        ReportDraft.fieldNames.contains(error.field) || error.field == "contact",
                        "a form problem on an unknown field '\(error.field)'"
                    )
                }
            }
        case .success(let report):
            let body = report.upstreamJSON()
            guard let json = JSONValue.parse(Data(body)), case .object(let members) = json else {
                fatalError("invariant broken: upstreamJSON() is not a JSON object: \(text(body))")
            }
            var keys = Set<String>()
            for member in members {
                let key = member.key
                let value = member.value
                expect(ReportDraft.fieldNames.contains(key), "upstreamJSON() has the key '\(key)'")
                expect(keys.insert(key).inserted, "upstreamJSON() repeats the key '\(key)'")
                switch value {
                case .null: fatalError("invariant broken: upstreamJSON() sends null for '\(key)'")
                case .string(let string): expect(!string.isEmpty, "upstreamJSON() sends \"\" for '\(key)'")
                default: break
                }
            }
            for required in ["species", "sex", "locationLatitude", "locationLongitude", "lastSeenDate", "status"] {
                expect(keys.contains(required), "upstreamJSON() lacks '\(required)'")
            }
            expect(report.email != nil || report.phone != nil, "an accepted report without a contact")
            let again = ReportValidation.validate(jsonBody: body, localToday: localToday, upstreamToday: upstreamToday)
            switch again {
            case .success(let same):
                expect(same == report, "upstreamJSON() reads back as another report: \(text(body))")
            case .failure(let refusal):
                fatalError("invariant broken: upstreamJSON() \(text(body)) is refused: \(refusal.errors)")
            }
        }
    }
}
