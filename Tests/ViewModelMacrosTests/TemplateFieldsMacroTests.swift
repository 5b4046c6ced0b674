import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import ViewModelMacros

/// `@TemplateFields` writes the lookup the templates use from the struct's own declaration.
@Suite struct TemplateFieldsMacroTests {
    private let macros: [String: MacroSpec] = [
        "TemplateFields": MacroSpec(
            type: TemplateFieldsMacro.self,
            conformances: [TypeSyntax(IdentifierTypeSyntax(name: .identifier("MustacheParent")))]
        )
    ]

    private func expect(
        _ source: String,
        expands expected: String,
        diagnostics: [DiagnosticSpec] = [],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source,
            expandedSource: expected,
            diagnostics: diagnostics,
            macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) }
        )
    }

    @Test func every_instance_property_is_answered_by_name_and_static_ones_are_not() {
        expect(
            """
            @TemplateFields
            struct Card: Sendable {
                static let template = "card"
                let id: String
                var detailURL: String, name: String?
                var isFound: Bool { true }
            }
            """,
            expands: """
                struct Card: Sendable {
                    static let template = "card"
                    let id: String
                    var detailURL: String, name: String?
                    var isFound: Bool { true }
                }

                extension Card: MustacheParent {
                    /// The field called `name`, for the templates (written by `@TemplateFields`).
                    func child(named name: String) -> Any? {
                        switch name {
                        case "id":
                            return self.id
                        case "detailURL":
                            return self.detailURL
                        case "name":
                            return self.name
                        case "isFound":
                            return self.isFound
                        default:
                            return nil
                        }
                    }
                }
                """
        )
    }

    @Test func a_class_is_refused_with_a_message() {
        expect(
            """
            @TemplateFields
            final class Page {
                let title = ""
            }
            """,
            expands: """
                final class Page {
                    let title = ""
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@TemplateFields applies to a struct (a view model)", line: 1, column: 1)]
        )
    }
}
