/// A catalog text split once at its `{name}` slots, so filling it per request is appending
/// strings, not searching them.
///
/// Why: `String.replacingOccurrences` (Foundation, through CFString and UTF-16) per slot took
/// a fifth of the CPU of a page at a random location (perf, 5,000 items), where the result count
/// and the range text are filled for every page. Filling parts also never reads a slot name
/// inside a value given for another slot (a pet named "{count}" stays "{count}").
struct Message: Sendable, Equatable {
    /// A run of literal text, or the name of a slot.
    enum Part: Sendable, Equatable {
        case text(String)
        case slot(String)
    }

    let parts: [Part]

    /// Splits `text` at every `{name}` (a name is letters, digits and `_`; any other brace is text).
    init(_ text: String) {
        var parts: [Part] = []
        var literal = Substring()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), close > afterOpen,
                rest[afterOpen..<close].allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
            {
                literal += rest[..<open]
                if !literal.isEmpty { parts.append(.text(String(literal))) }
                literal = ""
                parts.append(.slot(String(rest[afterOpen..<close])))
                rest = rest[rest.index(after: close)...]
            } else {
                literal += rest[...open]
                rest = rest[afterOpen...]
            }
        }
        literal += rest
        if !literal.isEmpty || parts.isEmpty { parts.append(.text(String(literal))) }
        self.parts = parts
    }

    /// The text with each slot named in `values` filled; a slot without a value stays `{name}`.
    func filled(_ values: [(String, String)]) -> String {
        filled(count: nil, values)
    }

    /// `filled` with the `{count}` slot given apart, so a counted text needs no array of its own.
    func filled(count: String?, _ values: [(String, String)]) -> String {
        if parts.count == 1, case .text(let only) = parts[0] { return only }
        // Appended as bytes, one string made at the end: appending strings cost a few hundred
        // instructions each, and a located page or feed fills several texts (callgrind).
        var result: [UInt8] = []
        result.reserveCapacity(128)
        for part in parts {
            switch part {
            case .text(let text):
                result += text.utf8
            case .slot(let name):
                if let count, name == "count" {
                    result += count.utf8
                } else if let value = values.first(where: { $0.0 == name })?.1 {
                    result += value.utf8
                } else {
                    result += "{\(name)}".utf8
                }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
