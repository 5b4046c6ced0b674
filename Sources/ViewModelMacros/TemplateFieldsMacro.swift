import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TemplateFields` on a view model struct: writes its `MustacheParent` conformance, a
/// `child(named:)` that answers every instance property by name, from the struct's own
/// declaration. A view model's fields are listed once, where they are declared; a
/// field added, renamed or removed is a field the templates see, with no switch to keep in step.
///
/// Why not reflection: swift-mustache looks a name up with `Mirror` on every `{{name}}` (and again
/// on each level of the context stack), which made a 20-card list cost milliseconds of CPU; the
/// generated `switch` answers a name with a few string comparisons.
public struct TemplateFieldsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: TemplateFieldsMessage.notAStruct))
            return []
        }
        let names = fieldNames(of: declaration)
        let cases = names.map { "case \"\($0)\": return self.\($0)" }.joined(separator: "\n")
        // Only add the conformance when the type does not declare it already.
        let conformance = protocols.isEmpty ? "" : ": " + protocols.map(\.trimmedDescription).joined(separator: ", ")
        let decl: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
                /// The field called `name`, for the templates (written by `@TemplateFields`).
                func child(named name: String) -> Any? {
                    switch name {
                    \(raw: cases)
                    default: return nil
                    }
                }
            }
            """
        guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    /// The names of the instance properties, stored and computed, in declaration order.
    static func fieldNames(of declaration: some DeclGroupSyntax) -> [String] {
        var names: [String] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
            else { continue }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                names.append(pattern.identifier.trimmedDescription)
            }
        }
        return names
    }
}

/// What `@TemplateFields` says when used where it cannot work.
enum TemplateFieldsMessage: String, DiagnosticMessage {
    case notAStruct = "@TemplateFields applies to a struct (a view model)"

    var message: String { rawValue }
    var diagnosticID: MessageID { MessageID(domain: "ViewModelMacros", id: "\(self)") }
    var severity: DiagnosticSeverity { .error }
}

@main
struct ViewModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TemplateFieldsMacro.self]
}
