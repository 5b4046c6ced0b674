import Foundation
import PetDomain

/// The demo backend's JSON bodies, written by PetDomain's `JSONWriter` in its `JSON.stringify`
/// mode, so key order, escapes and number formatting match the Node backend byte for byte
/// (JSONSerialization reorders keys and writes `17.0`; a stable body also keeps ETags stable).
enum JSONText {
    /// A JSON value as the backend's `JSON.stringify` would write it.
    enum Value: Sendable {
        case string(String?)
        case number(Double?)
        case integer(Int?)
        case raw(String)
    }

    /// Writes an object whose keys appear in the given order; nil values become explicit `null`
    /// because the backend always emits every key (docs/upstream.md §1).
    static func object(_ pairs: [(String, Value)]) -> String {
        var writer = JSONWriter(htmlSafe: false)
        writer.raw("{")
        for (index, pair) in pairs.enumerated() {
            writer.key(pair.0, first: index == 0)
            switch pair.1 {
            case .string(let string): writer.string(string)
            case .number(let number): writer.number(number)
            case .integer(let integer): writer.integer(integer)
            case .raw(let raw): writer.raw(raw)
            }
        }
        writer.raw("}")
        return writer.text
    }

    /// Writes an array of already-encoded JSON values.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
