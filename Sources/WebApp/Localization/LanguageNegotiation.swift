import FastBytes
import MicroHTTP

/// Choosing one of a few languages from an `Accept-Language` value (RFC 9110 §12.5.4, basic
/// filtering by primary subtag), on bytes and without allocating: `ResponseCache` asks this for every
/// request it looks up, and the pages for every page, so both pick the same language.
///
/// A language's weight is the highest `q` of the ranges naming its primary subtag (`pl`, `pl-PL`,
/// `PL-pl` all name `pl`), else 0; `*` ("any other") weighs for the default language only, so
/// another language is chosen only when the header names it (Polish for any `pl*`,
/// English otherwise). The heaviest language with a weight above 0 wins; a tie goes to the one
/// named first in the header. No header, or no acceptable language, gives the first (default).
struct LanguageNegotiation: Sendable {
    /// Primary subtags in lowercase ASCII, the default first, e.g. `["en", "pl"]`.
    let languages: [String]
    private let tags: [[UInt8]]

    /// Negotiates between `languages` (primary subtags; the first is the default).
    init(languages: [String]) {
        precondition(!languages.isEmpty && languages.count < 255, "one to 254 languages")
        self.languages = languages
        tags = languages.map { Array($0.lowercased().utf8) }
    }

    /// The index in `languages` of the language chosen for the header value `header` (nil: absent).
    func choose(_ header: String?) -> Int {
        guard let header else { return 0 }
        return choose(bytes: header.utf8.span)
    }

    /// `choose` on the header value's bytes.
    func choose(bytes: Span<UInt8>) -> Int {
        // Per language: best weight (in thousandths, -1 = not named) and the position naming it,
        // on the stack (this runs for every kept answer).
        MutableElementView<Int>.onStack(count: tags.count * 2, repeating: -1) { table in
            for index in tags.indices { table[2 * index + 1] = Int.max }
            var wildcard = -1
            var wildcardAt = Int.max
            var position = 0
            var start = 0
            let count = bytes.count
            while start < count {
                var end = start
                while end < count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                if let range = WeightedList.item(bytes, from: start, to: end) {
                    let (tagStart, tagEnd, weight) = range
                    if tagEnd - tagStart == 1, bytes[tagStart] == UInt8(ascii: "*") {
                        if wildcard < 0 {
                            wildcard = weight
                            wildcardAt = position
                        }
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
            var best = 0
            var bestWeight = 0
            var bestAt = Int.max
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

    /// True when the tag in `bytes[start..<end]` has `primary` as its primary subtag (case-insensitive).
    private static func primaryMatches(_ primary: [UInt8], _ bytes: Span<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= primary.count else { return false }
        for (offset, byte) in primary.enumerated() where bytes[start + offset] | 0x20 != byte { return false }
        return end - start == primary.count || bytes[start + primary.count] == UInt8(ascii: "-")
    }
}
