import FastBytes
import Foundation

extension JSONValue {
    /// Parses a complete JSON document (RFC 8259; a leading UTF-8 byte-order mark is tolerated).
    ///
    /// A hand-written parser rather than `JSONSerialization`: it keeps number text exact (see
    /// `JSONValue.number`), never confuses `1` with `true` through `NSNumber`, and meets the
    /// throughput a 5,000-item list needs (docs/upstream.md §2, "thousands of items must stay fast").
    static func parse(_ data: Data) -> JSONValue? {
        var parser = JSONParser(bytes: [UInt8](data))
        return parser.parseDocument()
    }
}

/// A recursive-descent JSON parser over bytes; returns `nil` for anything that is not JSON.
struct JSONParser {
    /// Nesting deeper than this is rejected, so hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// A parser over the whole body.
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// One value with nothing but white space around it, or nil.
    mutating func parseDocument() -> JSONValue? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard let value = parseValue() else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    /// What `parseList` reports while it reads a list body.
    enum ListEvent {
        /// A list array starts: the bare top-level array (`key` nil) or the array under a wrapper key.
        case begin(key: String?)
        /// The next element of the array that began last, with the key of its bytes (`ItemKey`).
        case element(JSONValue, ItemKey)
        /// The next element, not parsed: bytes that `known` said were seen before (`DecodedItems`).
        case known(ItemKey)
        /// A wrapper key whose value is not an array: with repeated keys the last one wins.
        case notArray(key: String)
    }

    /// Reads a whole document like `parseDocument`, but hands each element of a top-level array,
    /// or of an array under one of `wrapperKeys` of a top-level object, to `handle` as soon as it
    /// is parsed, without building the array: a 30 MB list body no longer becomes a value tree of
    /// several times its size before its items are validated (docs/performance.md "Memory").
    /// Everything else is parsed and dropped. False when the body is not one JSON document; what
    /// was handed over before the error must then be discarded.
    /// `known`: whether an element with these bytes was read before; such an element is only scanned for its end
    /// (bytes seen before parsed then, so they are JSON), and handed over as `.known` instead of as a value.
    mutating func parseList(wrapperKeys: Set<String>, known: (ItemKey) -> Bool = { _ in false }, _ handle: (ListEvent) -> Void) -> Bool {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "["):
            handle(.begin(key: nil))
            guard streamArray(known, handle) else { return false }
        case UInt8(ascii: "{"):
            guard streamObject(wrapperKeys: wrapperKeys, known, handle) else { return false }
        default:
            guard parseValue() != nil else { return false }
        }
        skipWhitespace()
        return index == bytes.count
    }

    /// `parseObject` for the top-level object of a list body: the wrapper keys' arrays are streamed.
    private mutating func streamObject(wrapperKeys: Set<String>, _ known: (ItemKey) -> Bool, _ handle: (ListEvent) -> Void) -> Bool {
        depth += 1
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            if wrapperKeys.contains(key), index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                handle(.begin(key: key))
                guard streamArray(known, handle) else { return false }
            } else {
                guard parseValue() != nil else { return false }
                if wrapperKeys.contains(key) { handle(.notArray(key: key)) }
            }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// `parseArray` handing over each element instead of collecting them.
    private mutating func streamArray(_ known: (ItemKey) -> Bool, _ handle: (ListEvent) -> Void) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONParser.maximumDepth else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            let start = index
            if skipValue(), case let key = self.key(start..<index), known(key) {
                handle(.known(key))
            } else {
                index = start
                guard let value = parseValue() else { return false }
                handle(.element(value, self.key(start..<index)))
            }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// The key of the element at `range` (`ItemKey`).
    private func key(_ range: Range<Int>) -> ItemKey {
        bytes.withView { ItemKey($0.view(range)) }
    }

    /// Moves past one value without building it: only where it ends is found (strings with their escapes,
    /// nesting up to `maximumDepth`), not whether it is JSON. False when no end was found. Bytes it ends on that
    /// `known` recognises parsed whole before, so they are one JSON value and end where the parser would.
    private mutating func skipValue() -> Bool {
        var nesting = 0
        repeat {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return false }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                nesting += 1
                guard nesting <= JSONParser.maximumDepth else { return false }
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard nesting > 0 else { return false }
                nesting -= 1
                index += 1
            default:
                // Inside an object or array: commas, colons, white space, numbers and literals.
                guard nesting == 0 else {
                    index += 1
                    continue
                }
                // A number or literal on its own runs to the next delimiter.
                let start = index
                while index < bytes.count {
                    switch bytes[index] {
                    case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return index > start
                    default: index += 1
                    }
                }
                return false
            }
        } while nesting > 0
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() -> JSONValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return parseObject()
        case UInt8(ascii: "["): return parseArray()
        case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
        case UInt8(ascii: "t"): return parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return parseLiteral("null", .null)
        default: return parseNumber()
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let matches = word.withUTF8Buffer { expected in
            expected.elementsEqual(bytes[index..<index + count])
        }
        guard matches else { return nil }
        index += count
        return value
    }

    private mutating func parseObject() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONParser.maximumDepth else { return nil }
        index += 1
        var members: [JSONMember] = []
        members.reserveCapacity(20)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = parseValue() else { return nil }
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func parseArray() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONParser.maximumDepth else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            guard let value = parseValue() else { return nil }
            elements.append(value)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: return nil
            }
        }
    }

    /// Parses a string starting at the opening quote; the common escape-free case copies once.
    private mutating func parseString() -> String? {
        index += 1
        let start = index
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // ASCII (the usual case) needs no validation; only other text goes through the validator.
                let slice = bytes[start..<index]
                let text = highBits < 0x80 ? String(decoding: slice, as: UTF8.self) : JSONParser.validUTF8(slice)
                index += 1
                return text
            }
            highBits |= byte
            if byte == UInt8(ascii: "\\") { return parseEscapedString(from: start) }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    private mutating func parseEscapedString(from start: Int) -> String? {
        var buffer = [UInt8](bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return JSONParser.validUTF8(buffer[...])
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = parseUnicodeEscape() else { return nil }
                    buffer.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                buffer.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// Reads the hex digits after `\u`, combining a surrogate pair; a lone surrogate becomes U+FFFD
    /// (what JavaScript's own decoder would show), not a failure of the whole body.
    private mutating func parseUnicodeEscape() -> Unicode.Scalar? {
        guard let high = readHex4() else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            let save = index
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                if let low = readHex4(), (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                index = save
            }
            return Unicode.Scalar(0xFFFD)
        }
        return Unicode.Scalar(high) ?? Unicode.Scalar(0xFFFD)
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Validates the JSON number grammar and keeps its text.
    private mutating func parseNumber() -> JSONValue? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    /// Text of well-formed UTF-8 only: a body with broken encoding is not JSON (docs/upstream.md §1).
    private static func validUTF8(_ slice: ArraySlice<UInt8>) -> String? {
        if #available(macOS 15, iOS 18, *) {
            // One pass that validates and copies (the standard library's fast path).
            return String(validating: slice, as: UTF8.self)
        }
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: slice, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}

/// The decoder's JSON parser as the domain benchmark sees it: the hand-written parser is kept only while
/// it earns it, measured against `JSONSerialization` and `JSONDecoder` (docs/performance.md).
package enum JSONParsing {
    /// True when `data` is one JSON document; builds the whole value tree like the decoder does.
    package static func parses(_ data: Data) -> Bool {
        JSONValue.parse(data) != nil
    }
}
