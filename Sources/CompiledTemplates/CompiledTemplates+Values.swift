import Mustache

// Rendering follows swift-mustache 2.1.1's value rules (Template+Render.swift, Context.swift):
// the same lookups, the same order of type checks for sections and variables, the same Optional
// unwrapping. Speed comes from doing dynamic casts as rarely as possible: a context value is
// classified when it is pushed, with the conformance checks done once per type and render (a
// MustacheParent is then called directly, not cast on every lookup, which copied the struct each
// time), and String, Substring, Int and Bool values skip checks whose result they cannot change
// (they conform to none of swift-mustache's customisation protocols). Not reproduced:
// MustacheLambda and MustacheTemplate values (rendered through String(describing:)) and
// transforms (refused at load time).

/// One value on the context stack, classified once when pushed: its subclass answers lookups
/// without casting the value again.
class Frame {
    /// The value as pushed: what `{{.}}` renders and `PrerenderedPartial` is asked of.
    final let value: Any
    /// `value` as a `PrerenderedPartial`, when its type conforms (decided once per type).
    final let prerenderer: (any PrerenderedPartial)?

    /// A frame for a value that lookups reach through swift-mustache's general path.
    init(value: Any, isPrerendered: Bool) {
        self.value = value
        self.prerenderer = isPrerendered ? value as? any PrerenderedPartial : nil
    }

    /// The field `name` of the value; this base class takes swift-mustache's general path.
    func child(named name: String) -> Any? {
        immediateChild(name, of: value)
    }
}

/// String, Substring, Int or Bool: no named children, so lookups pass over it.
final class LeafFrame: Frame {
    /// Always nil: these values have no named children.
    override func child(named name: String) -> Any? { nil }
}

/// A MustacheParent, kept as its concrete type so a lookup is one direct `child(named:)` call.
final class ParentFrame<Parent: MustacheParent>: Frame {
    /// The value as its own type.
    let parent: Parent

    /// A frame for `parent`, which is `value` cast once.
    init(parent: Parent, value: Any, isPrerendered: Bool) {
        self.parent = parent
        super.init(value: value, isPrerendered: isPrerendered)
    }

    /// The parent's own answer, with no cast.
    override func child(named name: String) -> Any? {
        parent.child(named: name)
    }
}

/// How values of one dynamic type become frames. Conformance checks are slow (hundreds of ns on a
/// miss), so they run once per type and render; later values of the type (every card of a list)
/// only need a cast to their concrete type.
class FrameFactory {
    /// Whether the type conforms to PrerenderedPartial.
    final let isPrerendered: Bool

    /// A factory for types looked up through swift-mustache's general path.
    init(isPrerendered: Bool) {
        self.isPrerendered = isPrerendered
    }

    /// A frame for `value`, whose type is the one this factory was made for.
    func make(_ value: Any) -> Frame {
        Frame(value: value, isPrerendered: isPrerendered)
    }

    /// The factory for `value`'s type, following swift-mustache's checks: a custom representation
    /// is looked through on each lookup, then MustacheParent, then Mirror.
    static func forType(of value: Any) -> FrameFactory {
        let isPrerendered = value is any PrerenderedPartial
        // Optionals inside Any and custom representations keep the general path, which handles them exactly.
        if type(of: value) is any OptionalInAny.Type || value is any MustacheCustomRepresentation {
            return FrameFactory(isPrerendered: isPrerendered)
        }
        if let parent = value as? any MustacheParent {
            return parentFactory(parent, isPrerendered: isPrerendered)
        }
        return FrameFactory(isPrerendered: isPrerendered)
    }
}

/// Makes ParentFrames for one concrete MustacheParent type.
final class ParentFactory<Parent: MustacheParent>: FrameFactory {
    /// A ParentFrame when `value` is a `Parent` (it always is for the type this factory serves).
    override func make(_ value: Any) -> Frame {
        guard let parent = value as? Parent else { return super.make(value) }
        return ParentFrame(parent: parent, value: value, isPrerendered: isPrerendered)
    }
}

private func parentFactory<Parent: MustacheParent>(_ parent: Parent, isPrerendered: Bool) -> FrameFactory {
    ParentFactory<Parent>(isPrerendered: isPrerendered)
}

extension RenderRun {
    /// Pushes `value` as the innermost context value.
    mutating func push(_ value: Any) {
        if isLeafValue(value) {
            frames.append(LeafFrame(value: value, isPrerendered: false))
            return
        }
        let valueType = ObjectIdentifier(type(of: value))
        if let index = factoryTypes.firstIndex(of: valueType) {
            frames.append(factories[index].make(value))
            return
        }
        let factory = FrameFactory.forType(of: value)
        factoryTypes.append(valueType)
        factories.append(factory)
        frames.append(factory.make(value))
    }
}

/// Lets the renderer undo one level of Optional inside an `Any`, as swift-mustache does before
/// `String(describing:)` (its AnyOptional), without knowing the wrapped type.
private protocol OptionalInAny {
    /// The wrapped value, itself possibly an Optional, or nil.
    var unwrappedOnce: Any? { get }
}

extension Optional: OptionalInAny {
    fileprivate var unwrappedOnce: Any? { self }
}

/// Types whose mirrors have no children and that conform to none of swift-mustache's protocols.
func isLeafValue(_ value: Any) -> Bool {
    let valueType = type(of: value)
    return valueType == String.self || valueType == Int.self || valueType == Bool.self || valueType == Substring.self
}

/// The bytes HTML escaping replaces, as a 64-bit lookup table: `" & ' < >` are all below 0x40.

// MARK: Lookup

extension CompiledTemplates {
    /// swift-mustache's getChild without transforms: `{{.}}` is the innermost value, `{{.a.b}}`
    /// starts there, `{{a.b}}` finds `a` in the innermost value that has it, then follows `b`.
    func lookUp(_ nameIndex: Int, in frames: [Frame]) -> Any? {
        // Fields are read in place: copying the TemplateName or a Frame would cost reference counting.
        if program.names[nameIndex].isSimple {
            var index = frames.count - 1
            while index >= 0 {
                if let child = frames[index].child(named: program.names[nameIndex].head) {
                    return representation(of: child)
                }
                index -= 1
            }
            return nil
        }
        var found: Any?
        if program.names[nameIndex].components.isEmpty || program.names[nameIndex].anchored {
            guard var current = frames.last?.value else { return nil }
            for component in program.names[nameIndex].components {
                guard let child = immediateChild(component, of: current) else { return nil }
                current = child
            }
            found = current
        } else {
            var index = frames.count - 1
            while index >= 0 {
                if var current = frames[index].child(named: program.names[nameIndex].head) {
                    for component in program.names[nameIndex].components.dropFirst() {
                        guard let child = immediateChild(component, of: current) else { return nil }
                        current = child
                    }
                    found = current
                    break
                }
                index -= 1
            }
        }
        guard let found else { return nil }
        return representation(of: found)
    }

    /// swift-mustache's last lookup step: a MustacheCustomRepresentation stands for its representation.
    private func representation(of found: Any) -> Any? {
        if isLeafValue(found) { return found }
        if let custom = found as? any MustacheCustomRepresentation {
            return custom.representation
        }
        return found
    }
}

/// The field `name` of `object`: through MustacheParent, else Mirror (as swift-mustache does).
private func immediateChild(_ name: String, of object: Any) -> Any? {
    // Strings, numbers and Bools have no named children (their mirrors are empty).
    if isLeafValue(object) { return nil }
    let target: Any
    if let custom = object as? any MustacheCustomRepresentation {
        guard let representation = custom.representation else { return nil }
        target = representation
    } else {
        target = object
    }
    if let parent = target as? any MustacheParent {
        return parent.child(named: name)
    }
    guard let field = Mirror(reflecting: target).children.first(where: { $0.label == name }) else { return nil }
    // swift-mustache unwraps one Optional level of a reflected field.
    let fieldMirror = Mirror(reflecting: field.value)
    guard fieldMirror.displayStyle == .optional else { return field.value }
    return fieldMirror.children.first?.value
}

// MARK: Values

extension CompiledTemplates {
    /// Writes a variable's value: its text, HTML-escaped unless `{{{…}}}` / `{{&…}}`.
    func writeValue(_ value: Any, escaped: Bool, into output: inout [UInt8]) {
        let valueType = type(of: value)
        if valueType == String.self, let string = value as? String {
            write(string.utf8, escaped: escaped, into: &output)
        } else if valueType == Int.self, let number = value as? Int {
            output.append(contentsOf: String(number).utf8)
        } else if valueType == Bool.self, let flag = value as? Bool {
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        } else if valueType == Substring.self, let substring = value as? Substring {
            write(substring.utf8, escaped: escaped, into: &output)
        } else if let renderable = value as? any MustacheCustomRenderable {
            write(renderable.renderText.utf8, escaped: escaped, into: &output)
        } else {
            // swift-mustache describes the value after removing one Optional level; a nil inside
            // the Any stays and prints as "nil".
            let unwrapped = (value as? any OptionalInAny)?.unwrappedOnce ?? value
            write(String(describing: unwrapped).utf8, escaped: escaped, into: &output)
        }
    }

    /// Appends UTF-8 bytes, HTML-escaped when `escaped` (`HTMLText`).
    private func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, escaped: Bool, into output: inout [UInt8]) {
        if escaped {
            HTMLText.escape(bytes, into: &output)
        } else {
            output.append(contentsOf: bytes)
        }
    }
}
