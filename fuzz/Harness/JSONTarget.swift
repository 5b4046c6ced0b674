import Foundation

@testable import PetDomain

/// `JSONValue.parse` against the one JSON writer of the package: whatever the parser accepts,
/// written again (both escaping modes), must parse to a byte-identical value.
enum JSONTarget {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let parsed = JSONValue.parse(data)
        expect(JSONParsing.parses(data) == (parsed != nil), "JSONParsing.parses disagrees with JSONValue.parse")
        guard let parsed else { return }
        checkAccessors(parsed)
        for htmlSafe in [true, false] {
            var writer = JSONWriter(htmlSafe: htmlSafe)
            write(parsed, into: &writer)
            guard let again = JSONValue.parse(Data(writer.text.utf8)) else {
                fatalError("invariant broken: written JSON does not parse (htmlSafe: \(htmlSafe)): \(writer.text.prefix(200))")
            }
            expect(identical(parsed, again), "written JSON parses to another value (htmlSafe: \(htmlSafe))")
        }
    }

    /// The tolerant accessors the decoder reads fields with, on every value of the tree.
    static func checkAccessors(_ value: JSONValue) {
        if let number = value.double { expect(number.isFinite, "double not finite") }
        if let whole = value.integer {
            expect(Double(whole) == value.double, "integer \(whole) is not the double \(String(describing: value.double))")
        }
        if let text = value.text { expect(!text.isEmpty, "empty text") }
        _ = value.present
        _ = value.logText
        switch value {
        case .array(let elements): elements.forEach(checkAccessors)
        case .object(let members):
            for member in members {
                expect(value[member.key] != nil, "key \(member.key) not found in its own object")
                checkAccessors(member.value)
            }
        default: break
        }
    }

    /// Writes a parsed value back as JSON text: numbers as their source text, strings through
    /// `JSONWriter.string`, members in source order (repeated keys kept).
    static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .null: writer.null()
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let lexeme): writer.raw(lexeme)
        case .string(let string): writer.string(string)
        case .array(let elements):
            writer.raw("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { writer.raw(",") }
                write(element, into: &writer)
            }
            writer.raw("]")
        case .object(let members):
            writer.raw("{")
            for (offset, member) in members.enumerated() {
                writer.key(member.key, first: offset == 0)
                write(member.value, into: &writer)
            }
            writer.raw("}")
        }
    }

    /// Structural equality with strings compared byte for byte.
    static func identical(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)): return sameBytes(left, right)
        case (.string(let left), .string(let right)): return sameBytes(left, right)
        case (.array(let left), .array(let right)): return left.elementsEqual(right, by: identical)
        case (.object(let left), .object(let right)):
            return left.elementsEqual(right) { sameBytes($0.key, $1.key) && identical($0.value, $1.value) }
        default: return false
        }
    }
}
