/// An array's elements pinned for reading by index, each read bounds-checked (in release builds
/// too) but without the array's own checks of uniqueness and retains: the located index's loops
/// read the grid's slots this way (`LocatedPlan`), where going through the arrays cost a third of a
/// located feed's merge (callgrind). Valid only inside the `withElements` call that made it.
@frozen
public struct ElementView<Element> {
    @usableFromInline let base: UnsafePointer<Element>?
    public let count: Int

    @usableFromInline
    init(_ buffer: UnsafeBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    @inlinable
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "ElementView: index out of range")
        return base.unsafelyUnwrapped[index]
    }
}

/// An array's elements pinned for reading and writing by index (a heap kept in place), each access
/// bounds-checked. Valid only inside the `withMutableElements` call that made it.
@frozen
public struct MutableElementView<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    public let count: Int

    @usableFromInline
    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    @inlinable
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "MutableElementView: index out of range")
            return base.unsafelyUnwrapped[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "MutableElementView: index out of range")
            base.unsafelyUnwrapped[index] = newValue
        }
    }
}

extension Array {
    /// Runs `body` with the elements pinned for reading (`ElementView`).
    @inlinable
    public func withElements<Result>(_ body: (ElementView<Element>) throws -> Result) rethrows -> Result {
        try withUnsafeBufferPointer { try body(ElementView($0)) }
    }

    /// Runs `body` with the elements pinned for reading and writing (`MutableElementView`).
    @inlinable
    public mutating func withMutableElements<Result>(_ body: (MutableElementView<Element>) throws -> Result) rethrows -> Result {
        try withUnsafeMutableBufferPointer { try body(MutableElementView($0)) }
    }
}

extension MutableElementView {
    /// Runs `body` with `count` elements on the stack, each `value` at first: a small table per
    /// request without an allocation (the language chosen for every kept answer: `LanguageNegotiation`).
    @inlinable
    public static func onStack<Result>(
        count: Int,
        repeating value: Element,
        _ body: (MutableElementView<Element>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: Element.self, capacity: Swift.max(0, count)) { buffer in
            buffer.initialize(repeating: value)
            defer { buffer.deinitialize() }
            return try body(MutableElementView(buffer))
        }
    }
}
