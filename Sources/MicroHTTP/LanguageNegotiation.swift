/// Choosing one of a few languages from an `Accept-Language` value (RFC 9110 §12.5.4, basic
/// filtering by primary subtag), on bytes and without allocating: the server asks this for every
/// request it answers from `KeptAnswers`, and the application for every page.
///
/// A language's weight is the highest `q` of the ranges naming its primary subtag (`pl`, `pl-PL`,
/// `PL-pl` all name `pl`), else 0; `*` ("any other") weighs for the default language only, so
/// another language is chosen only when the header names it (Polish for any `pl*`,
/// English otherwise). The heaviest language with a weight above 0 wins; a tie goes to the one
/// named first in the header. No header, or no acceptable language, gives the first (default).
public struct LanguageNegotiation: Sendable {
    /// Primary subtags in lowercase ASCII, the default first, e.g. `["en", "pl"]`.
    public let languages: [String]
    private let tags: [[UInt8]]

    /// Negotiates between `languages` (primary subtags; the first is the default).
    public init(languages: [String]) {
        precondition(!languages.isEmpty && languages.count < 255, "one to 254 languages")
        self.languages = languages
        tags = languages.map { Array($0.lowercased().utf8) }
    }

    /// The index in `languages` of the language chosen for the header value `header` (nil: absent).
    public func choose(_ header: String?) -> Int {
        guard var text = header else { return 0 }
        return text.withUTF8 { choose(bytes: $0) }
    }

    /// `choose` on the header value's bytes.
    func choose(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Per language: best weight (in thousandths, -1 = not named) and the position naming it,
        // on the stack (this runs for every kept answer).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: tags.count * 2) { table in
            for index in tags.indices { table[2 * index] = -1; table[2 * index + 1] = Int.max }
            var wildcard = -1, wildcardAt = Int.max
            var position = 0, start = 0
            let count = bytes.count
            while start < count {
                var end = start
                while end < count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                if let range = LanguageNegotiation.range(bytes, from: start, to: end) {
                    let (tagStart, tagEnd, weight) = range
                    if tagEnd - tagStart == 1, bytes[tagStart] == UInt8(ascii: "*") {
                        if wildcard < 0 { wildcard = weight; wildcardAt = position }
                    } else {
                        for index in tags.indices where LanguageNegotiation.primaryMatches(tags[index], bytes, tagStart, tagEnd) {
                            if weight > table[2 * index] { table[2 * index] = weight }
                            if table[2 * index + 1] == Int.max { table[2 * index + 1] = position }
                        }
                    }
                    position += 1
                }
                start = end + 1
            }
            var best = 0, bestWeight = 0, bestAt = Int.max
            for index in tags.indices {
                let named = table[2 * index] >= 0
                let weight = named ? table[2 * index] : (index == 0 ? max(0, wildcard) : 0)
                let at = named ? table[2 * index + 1] : wildcardAt
                if weight > bestWeight || (weight == bestWeight && weight > 0 && at < bestAt) {
                    best = index
                    bestWeight = weight
                    bestAt = at
                }
            }
            return best
        }
    }

    /// The tag's bounds and weight (thousandths) of the range in `bytes[from..<to]`; nil when empty.
    /// `Accept-Encoding` shares this syntax (RFC 9110 §12.4.2): `ContentCoding` reads it too.
    static func range(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> (Int, Int, Int)? {
        var index = from
        while index < to, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        let tagStart = index
        while index < to, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") { index += 1 }
        let tagEnd = index
        guard tagEnd > tagStart else { return nil }
        var weight = 1000
        // Parameters: only `q` counts; a malformed weight makes the range unacceptable.
        while index < to {
            while index < to, bytes[index] != UInt8(ascii: ";") { index += 1 }
            guard index < to else { break }
            index += 1
            while index < to, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index + 1 < to, bytes[index] | 0x20 == UInt8(ascii: "q"), bytes[index + 1] == UInt8(ascii: "=") else { continue }
            weight = qValue(bytes, from: index + 2, to: to) ?? 0
        }
        return (tagStart, tagEnd, weight)
    }

    /// `0`, `0.5`, `1`, `1.000` as thousandths; nil for anything else.
    private static func qValue(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var end = to
        while end > from, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        var end2 = from
        while end2 < end, bytes[end2] != UInt8(ascii: ";") { end2 += 1 }
        end = end2
        guard end > from, bytes[from] == UInt8(ascii: "0") || bytes[from] == UInt8(ascii: "1") else { return nil }
        var value = Int(bytes[from] - UInt8(ascii: "0")) * 1000
        guard end > from + 1 else { return value }
        guard bytes[from + 1] == UInt8(ascii: "."), end - (from + 2) <= 3 else { return nil }
        var scale = 100
        for index in (from + 2)..<end {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            value += Int(bytes[index] - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return min(value, 1000)
    }

    /// True when the tag in `bytes[start..<end]` has `primary` as its primary subtag (case-insensitive).
    private static func primaryMatches(_ primary: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= primary.count else { return false }
        for (offset, byte) in primary.enumerated() where bytes[start + offset] | 0x20 != byte { return false }
        return end - start == primary.count || bytes[start + primary.count] == UInt8(ascii: "-")
    }
}
