import Foundation

/// A JSON document as `JSON.parse` gives it to the backend's validator: numbers are doubles
/// (`1e400` is `Infinity`, as in JavaScript), object keys keep their first position and their last
/// value (a repeated key overwrites), so the first unknown key is the one the backend names.
/// PetDomain's own parser keeps numbers as text for decoding; this one mirrors JavaScript's values.
enum DemoJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DemoJSON])
    case object([(key: String, value: DemoJSON)])

    /// The value under `key` of an object.
    subscript(key: String) -> DemoJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The type name zod prints in "Expected string, received …".
    var zodTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let value): value.isNaN ? "nan" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func == (lhs: DemoJSON, rhs: DemoJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Parses a whole document; nil for anything `JSON.parse` would throw on.
    static func parse(_ bytes: [UInt8]) -> DemoJSON? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int = 0) -> DemoJSON? {
            skipSpace()
            guard index < bytes.count, depth < 512 else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(DemoJSON.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ result: DemoJSON) -> DemoJSON? {
            let word = Array(word.utf8)
            guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else { return nil }
            index += word.count
            return result
        }

        mutating func object(depth: Int) -> DemoJSON? {
            index += 1
            var members: [(key: String, value: DemoJSON)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                if let existing = members.firstIndex(where: { $0.key == key }) {
                    members[existing].value = member
                } else {
                    members.append((key, member))
                }
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> DemoJSON? {
            index += 1
            var elements: [DemoJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(elements)
                default: return nil
                }
            }
        }

        /// A string at the opening quote; lone surrogates (legal in JavaScript) become U+FFFD.
        mutating func string() -> String? {
            index += 1
            var units: [UInt16] = []
            var run: [UInt8] = []
            func flush() {
                units.append(contentsOf: String(decoding: run, as: UTF8.self).utf16)
                run.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(decoding: units, as: UTF16.self)
                case UInt8(ascii: "\\"):
                    flush()
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(escape))
                    case UInt8(ascii: "b"): units.append(0x08)
                    case UInt8(ascii: "f"): units.append(0x0C)
                    case UInt8(ascii: "n"): units.append(0x0A)
                    case UInt8(ascii: "r"): units.append(0x0D)
                    case UInt8(ascii: "t"): units.append(0x09)
                    case UInt8(ascii: "u"):
                        guard bytes.count - index >= 4,
                            let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                        else { return nil }
                        index += 4
                        units.append(unit)
                    default: return nil
                    }
                case 0x00..<0x20: return nil
                default: run.append(byte)
                }
            }
            return nil
        }

        /// A number in JSON's grammar, read as JavaScript reads it (a double, possibly infinite).
        mutating func number() -> DemoJSON? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard let first = digits(), first == 1 || bytes[index - first] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() != nil else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() != nil else { return nil }
            }
            return Double(String(decoding: bytes[start..<index], as: UTF8.self)).map(DemoJSON.number)
        }

        /// Skips one or more digits; their count, nil when there is none.
        mutating func digits() -> Int? {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start ? index - start : nil
        }
    }
}
