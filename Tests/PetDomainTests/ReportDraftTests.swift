import Foundation
import PetDomain
import Testing

/// Building a draft from form fields, and reading it back by field name.
@Suite struct ReportDraftTests {
    @Test func draft_from_form_fields_keeps_raw_text_and_ignores_unknown_names() {
        let draft = ReportDraft(fields: [("petName", "  Max "), ("photo", "x.jpg"), ("age", "5,5"), ("species", "dog")])
        #expect(draft.petName == "  Max ")
        #expect(draft.age == "5,5")
        #expect(draft.species == "dog")
        #expect(draft[field: "photo"] == nil)
    }

    @Test func draft_takes_the_first_of_repeated_fields() {
        let draft = ReportDraft(fields: [("status", "MISSING"), ("status", "FOUND")])
        #expect(draft.status == "MISSING")
    }

    @Test func draft_field_names_reach_every_property() {
        var draft = ReportDraft()
        for (index, name) in ReportDraft.fieldNames.enumerated() { draft[field: name] = "v\(index)" }
        #expect(ReportDraft.fieldNames.count == 14)
        #expect(Set(ReportDraft.fieldNames).count == 14)
        #expect(ReportDraft.fieldNames.enumerated().allSatisfy { draft[field: $0.element] == "v\($0.offset)" })
        #expect(draft.reward == "v13" && draft.petName == "v0" && draft.lastSeenDate == "v11")
    }
}
