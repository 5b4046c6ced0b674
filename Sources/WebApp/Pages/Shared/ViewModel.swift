import Mustache

// Field lookup without Mirror: swift-mustache reflects every child of a struct on each `{{name}}`
// lookup (and again on each level of the context stack for names found higher up), which made a
// 20-card list cost several milliseconds of CPU. `MustacheParent` answers by name directly; the
// `@TemplateFields` macro (target ViewModelMacros) writes that answer from each model's declaration.

/// Writes a view model's `MustacheParent` conformance: `child(named:)` answers each of its
/// instance properties by name; on a `package` model without an initializer, also its memberwise
/// initializer at `package` access (see `TemplateFieldsMacro`).
@attached(extension, conformances: MustacheParent, names: named(child))
@attached(member, names: named(init))
macro TemplateFields() = #externalMacro(module: "ViewModelMacros", type: "TemplateFieldsMacro")

/// A model a whole template renders (a page, or the card partial): `PageRenderer.render` takes
/// these, not `Any`, so a wrong value is a compile error, not an empty page.
protocol ViewModel: MustacheParent, Sendable {}

extension CardModel: ViewModel {}
