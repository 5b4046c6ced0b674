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
///
/// On a `package` struct without an initializer of its own it also writes the memberwise
/// initializer at `package` access (Swift's own stops at `internal`): the template samples, a
/// test-support target (Tests/TemplateSamples), fill the site's view models from outside WebApp.
public struct TemplateFieldsMacro: ExtensionMacro, MemberMacro {
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
        // A `package` model's witness is `package` too (a protocol's witness is as visible as its type).
        let isPackage = declaration.modifiers.contains { $0.name.tokenKind == .keyword(.package) }
        let access = isPackage ? "package " : ""
        let decl: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
                /// The field called `name`, for the templates (written by `@TemplateFields`).
                \(raw: access)func child(named name: String) -> Any? {
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

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self),
            structDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.package) }),
            !declaration.memberBlock.members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) }),
            let parameters = memberwiseParameters(of: declaration)
        else { return [] }
        let list = parameters.map { "\($0.name): \($0.type)" + ($0.defaultValue.map { " = \($0)" } ?? "") }.joined(separator: ", ")
        let body = parameters.map { "self.\($0.name) = \($0.name)" }.joined(separator: "\n")
        return [
            """
            /// Every stored property, as Swift's memberwise initializer takes them (written by `@TemplateFields`).
            package init(\(raw: list)) {
                \(raw: body)
            }
            """
        ]
    }

    /// The parameters of Swift's memberwise initializer: every stored instance property but a `let`
    /// with a value, in declaration order, with its default (an optional `var` defaults to nil). Nil
    /// when a stored property has no written type, or holds a function (the initializer is then left to Swift).
    static func memberwiseParameters(of declaration: some DeclGroupSyntax) -> [(name: String, type: String, defaultValue: String?)]? {
        var parameters: [(name: String, type: String, defaultValue: String?)] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
            else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
                if let accessors = binding.accessorBlock {
                    // A getter (or get/set) is computed; only observers (willSet/didSet) keep it stored.
                    guard case .accessors(let list) = accessors.accessors,
                        list.allSatisfy({ [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) })
                    else { continue }
                }
                if isLet, binding.initializer != nil { continue }
                guard let type = binding.typeAnnotation?.type.trimmedDescription ?? literalType(of: binding.initializer?.value) else { return nil }
                if let written = binding.typeAnnotation?.type, written.is(FunctionTypeSyntax.self) || written.is(AttributedTypeSyntax.self) {
                    return nil
                }
                var defaultValue = binding.initializer?.value.trimmedDescription
                if defaultValue == nil, !isLet,
                    let written = binding.typeAnnotation?.type,
                    written.is(OptionalTypeSyntax.self) || written.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
                {
                    defaultValue = "nil"
                }
                parameters.append((pattern.identifier.trimmedDescription, type, defaultValue))
            }
        }
        return parameters
    }

    /// The type Swift infers for a literal value (`false`, `0`, `""`, `0.5`), nil for any other.
    static func literalType(of value: ExprSyntax?) -> String? {
        guard let value else { return nil }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        return nil
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
