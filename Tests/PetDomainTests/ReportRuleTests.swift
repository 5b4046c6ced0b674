import Foundation
import PetDomain
import Testing

/// The report rules of docs/report-validation.md, one field at a time, with their boundaries.
@Suite struct ReportRuleTests {
    @Test func report_accepts_a_complete_form_with_typed_trimmed_values() throws {
        let report = try acceptedReport(
            reportDraft {
                $0.petName = "  Max \n"
                $0.species = " dog "
                $0.sex = "female"
            }
        )
        #expect(report.petName == "Max")
        #expect(report.species == .dog)
        #expect(report.sex == .female)
        #expect(report.age == 5)
        #expect(report.microchipNumber == "123456789012345")
        #expect(report.coordinate.latitude == 52.2297)
        #expect(report.coordinate.longitude == 21.0122)
        #expect(report.lastSeenDate == (try day(2026, 11, 20)))
        #expect(report.status == .missing)
        #expect(report.phone == "+48 123 456 789")
    }

    @Test func report_leaves_empty_optional_fields_absent() throws {
        let report = try acceptedReport(
            reportDraft {
                $0.petName = " "
                $0.breed = ""
                $0.age = "\t"
                $0.description = ""
                $0.microchipNumber = " "
                $0.email = ""
                $0.reward = "  "
            }
        )
        #expect(report.petName == nil && report.breed == nil && report.age == nil && report.description == nil)
        #expect(report.microchipNumber == nil && report.email == nil && report.reward == nil)
        #expect(report.phone == "+48 123 456 789")
    }

    @Test(arguments: ["species", "sex", "status", "locationLatitude", "locationLongitude", "lastSeenDate"])
    func report_refuses_an_empty_required_field(field: String) {
        let error = onlyError(reportDraft { $0[field: field] = "  " })
        #expect(error == ReportFieldError(field: field, code: .missingValue, problem: .required))
        #expect(error?.message == "\(field) cannot be empty")
    }

    @Test func report_refuses_a_species_the_backend_does_not_list() {
        let error = onlyError(reportDraft { $0.species = "Golden Retriever" })
        #expect(
            error
                == ReportFieldError(
                    field: "species",
                    code: .invalidFormat,
                    problem: .unknownChoice(allowed: ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"])
                )
        )
    }

    @Test(arguments: ["rabbit", "Bird", "OTHER", "cat"])
    func report_accepts_every_species_in_any_case(raw: String) throws {
        #expect(try acceptedReport(reportDraft { $0.species = raw }).species.apiValue == raw.uppercased())
    }

    @Test func report_refuses_sex_unknown_for_a_missing_pet() {
        let error = onlyError(reportDraft { $0.sex = "unknown" })
        #expect(error == ReportFieldError(field: "sex", code: .invalidFormat, problem: .unknownChoice(allowed: ["MALE", "FEMALE"])))
    }

    @Test func report_accepts_sex_unknown_for_a_found_pet() throws {
        let report = try acceptedReport(
            reportDraft {
                $0.sex = "UNKNOWN"
                $0.status = "found"
            }
        )
        #expect(report.sex == .unknown)
        #expect(report.status == .found)
    }

    @Test func report_with_an_empty_status_names_only_the_status_not_an_unknown_sex() {
        let errors = reportErrors(
            reportDraft {
                $0.sex = "UNKNOWN"
                $0.status = ""
            }
        )
        #expect(errors == [ReportFieldError(field: "status", code: .missingValue, problem: .required)])
    }

    @Test(arguments: ["CLOSED", "lost", "active"])
    func report_refuses_a_status_other_than_missing_or_found(raw: String) {
        #expect(onlyError(reportDraft { $0.status = raw })?.problem == .unknownChoice(allowed: ["MISSING", "FOUND"]))
    }

    @Test(arguments: [("petName", 100), ("breed", 100), ("description", 500)])
    func report_text_limits_hold_at_the_boundary(field: String, limit: Int) throws {
        _ = try acceptedReport(reportDraft { $0[field: field] = String(repeating: "ż", count: limit) })
        let error = onlyError(reportDraft { $0[field: field] = String(repeating: "ż", count: limit + 1) })
        #expect(error == ReportFieldError(field: field, code: .invalidFormat, problem: .tooLong(max: limit)))
    }

    @Test func report_counts_characters_not_bytes_or_scalars() throws {
        // 100 family emoji: 100 characters, 700 scalars, 2500 bytes; as the read side counts a name.
        _ = try acceptedReport(reportDraft { $0.petName = String(repeating: "👨‍👩‍👧", count: 100) })
    }

    @Test(arguments: [("1", 1), ("40", 40), ("5.0", 5), (" 7 ", 7)])
    func report_accepts_an_age_from_1_to_40(raw: String, years: Int) throws {
        #expect(try acceptedReport(reportDraft { $0.age = raw }).age == years)
    }

    @Test func report_refuses_age_zero() {
        let error = onlyError(reportDraft { $0.age = "0" })
        #expect(error == ReportFieldError(field: "age", code: .invalidFormat, problem: .ageRange(min: 1, max: 40)))
        #expect(error?.message.contains("age must be a positive integer") == true)
    }

    @Test(arguments: ["41", "-1", "1000"])
    func report_refuses_an_age_outside_1_to_40(raw: String) {
        #expect(onlyError(reportDraft { $0.age = raw })?.problem == .ageRange(min: 1, max: 40))
    }

    @Test func report_refuses_a_fractional_age() {
        #expect(onlyError(reportDraft { $0.age = "2.5" })?.problem == .notWholeNumber)
    }

    @Test(arguments: ["five", "nan", "inf", "0x10", "5 years", "1e999"])
    func report_refuses_an_age_that_is_not_a_number(raw: String) {
        #expect(onlyError(reportDraft { $0.age = raw })?.problem == .notANumber)
    }
}
