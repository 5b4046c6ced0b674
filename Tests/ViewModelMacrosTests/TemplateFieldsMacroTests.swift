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

    @Test func a_package_model_gets_a_package_memberwise_initializer_and_witness() {
        expect(
            """
            @TemplateFields
            package struct Mail: Sendable {
                static let template = "mail"
                package let what: String
                package let kind = "alert"
                package var count = 0
                package var isFound = false
                package var stopURL: String?
                package var pets: [String] = []
                package var total: Int { count + 1 }
            }
            """,
            expands: """
                package struct Mail: Sendable {
                    static let template = "mail"
                    package let what: String
                    package let kind = "alert"
                    package var count = 0
                    package var isFound = false
                    package var stopURL: String?
                    package var pets: [String] = []
                    package var total: Int { count + 1 }

                    /// Every stored property, as Swift's memberwise initializer takes them (written by `@TemplateFields`).
                    package init(what: String, count: Int = 0, isFound: Bool = false, stopURL: String? = nil, pets: [String] = []) {
                        self.what = what
                        self.count = count
                        self.isFound = isFound
                        self.stopURL = stopURL
                        self.pets = pets
                    }
                }

                extension Mail: MustacheParent {
                    /// The field called `name`, for the templates (written by `@TemplateFields`).
                    package func child(named name: String) -> Any? {
                        switch name {
                        case "what":
                            return self.what
                        case "kind":
                            return self.kind
                        case "count":
                            return self.count
                        case "isFound":
                            return self.isFound
                        case "stopURL":
                            return self.stopURL
                        case "pets":
                            return self.pets
                        case "total":
                            return self.total
                        default:
                            return nil
                        }
                    }
                }
                """
        )
    }

    @Test func a_package_model_with_an_initializer_of_its_own_keeps_only_that_one() {
        expect(
            """
            @TemplateFields
            package struct Page {
                package var title: String
                package init(title: String) { self.title = title.uppercased() }
            }
            """,
            expands: """
                package struct Page {
                    package var title: String
                    package init(title: String) { self.title = title.uppercased() }
                }

                extension Page: MustacheParent {
                    /// The field called `name`, for the templates (written by `@TemplateFields`).
                    package func child(named name: String) -> Any? {
                        switch name {
                        case "title":
                            return self.title
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
