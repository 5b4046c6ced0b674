import Foundation

/// A colour or marking that two descriptions of the same animal may both mention, named by its
/// canonical English word (docs/matching.md "Lexicon"). The order of the cases is the order
/// reasons list them in.
public enum Marking: String, Sendable, CaseIterable, Hashable {
    case black, white, grey, brown, ginger, cream, golden, tan
    /// Tabby cats and brindle dogs: Polish says "pręgowany" for both.
    case striped
    case tricolour, patched, spotted, merle

    /// The bit of this marking in a `MarkingSet`.
    var bit: UInt16 { 1 << UInt16(Marking.allCases.firstIndex(of: self) ?? 0) }
}

/// A set of markings as bits: comparing two descriptions is one `&`.
public struct MarkingSet: Sendable, Hashable {
    /// One bit per `Marking` case, in case order.
    public var bits: UInt16

    /// The empty set.
    public init() { bits = 0 }

    /// Adds `marking`.
    public mutating func insert(_ marking: Marking) { bits |= marking.bit }

    /// Markings in both sets.
    public func intersection(_ other: MarkingSet) -> MarkingSet {
        var both = MarkingSet()
        both.bits = bits & other.bits
        return both
    }

    /// True when the set holds nothing.
    public var isEmpty: Bool { bits == 0 }

    /// The markings, in case order.
    public var markings: [Marking] { Marking.allCases.filter { bits & $0.bit != 0 } }
}

/// The small English + Polish lexicon of colours and markings, and the breed rules, that matching
/// compares descriptions with (docs/matching.md "Lexicon"). Words are compared folded: lower case,
/// without diacritics (`ł` becomes `l`), so "Białą" and "biala" are one word. Polish adjectives are
/// recognised as a stem and one of the adjective endings ("czarn" + y/a/e/ego/ej/ym/ą… → black),
/// and colour compounds as stem + "o" + colour ("czarnobiały" → black, white); other words must
/// match exactly, so "Burek" (a dog's name) is not "bury" (tabby).
public enum MatchLexicon {
    /// The markings `text` mentions.
    public static func markings(in text: String?) -> MarkingSet {
        var set = MarkingSet()
        guard let text else { return set }
        for token in words(text) { classify(token, into: &set) }
        return set
    }

    /// The folded words of `text`: runs of letters and digits, lower case, without diacritics.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39:
                current.append(scalar)
            case 0x41...0x5A:
                current.append(Unicode.Scalar(scalar.value + 0x20) ?? scalar)
            default:
                if let folded = polishFold[scalar] {
                    current.append(folded)
                } else if !scalar.isASCII, scalar.properties.isAlphabetic {
                    // Other diacritics (é, ü, ñ…): decomposed and stripped by Foundation; rare, so not on the fast path.
                    let folded = String(scalar).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                    current.append(contentsOf: folded.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
                } else {
                    flush()
                }
            }
        }
        flush()
        return words
    }

    /// The breed as matching compares it: folded words without the words that say nothing about a
    /// breed ("mixed", "mieszaniec", "kundel", "domestic shorthair"…), a few Polish names as their
    /// English ones; nil when nothing is left (an unknown breed).
    public static func breedKey(_ breed: String?) -> String? {
        guard let breed else { return nil }
        let kept = words(breed).filter { !breedFiller.contains($0) }
        guard !kept.isEmpty else { return nil }
        let key = kept.joined(separator: " ")
        return breedSynonyms[key] ?? key
    }

    /// True when two breed keys name the same breed: equal, or every word of one is in the other
    /// ("labrador" and "labrador retriever").
    public static func sameBreed(_ left: String, _ right: String) -> Bool {
        if left == right { return true }
        let leftWords = Set(left.split(separator: " "))
        let rightWords = Set(right.split(separator: " "))
        return leftWords.isSubset(of: rightWords) || rightWords.isSubset(of: leftWords)
    }

    // MARK: - Tables

    /// Polish letters folded to ASCII, both cases (Foundation's diacritic folding leaves ł alone).
    private static let polishFold: [Unicode.Scalar: Unicode.Scalar] = [
        "ą": "a", "ć": "c", "ę": "e", "ł": "l", "ń": "n", "ó": "o", "ś": "s", "ź": "z", "ż": "z",
        "Ą": "a", "Ć": "c", "Ę": "e", "Ł": "l", "Ń": "n", "Ó": "o", "Ś": "s", "Ź": "z", "Ż": "z",
    ]

    /// Whole words, English and Polish nouns (folded).
    private static let exactWords: [String: Marking] = [
        "black": .black, "white": .white, "grey": .grey, "gray": .grey, "silver": .grey,
        "brown": .brown, "chocolate": .brown, "liver": .brown, "ginger": .ginger, "orange": .ginger,
        "cream": .cream, "beige": .cream, "fawn": .cream, "golden": .golden, "gold": .golden, "yellow": .golden,
        "blond": .golden, "blonde": .golden, "tan": .tan, "tabby": .striped, "striped": .striped, "stripes": .striped,
        "stripy": .striped, "tricolor": .tricolour, "tricolour": .tricolour, "calico": .tricolour,
        "tortoiseshell": .tricolour, "tortie": .tricolour, "patched": .patched, "patches": .patched,
        "piebald": .patched, "spotted": .spotted, "spots": .spotted, "speckled": .spotted, "dotted": .spotted,
        "brindle": .striped, "merle": .merle,
        // Polish nouns: white (biel), stripes (pręgi), patches (łaty, łatki), spots (cętki, plamki), tortoiseshell.
        "biel": .white, "bieli": .white, "rudzielec": .ginger, "szylkret": .tricolour,
        "pregi": .striped, "pregami": .striped, "pregach": .striped, "prazki": .striped, "prazkami": .striped,
        "laty": .patched, "latami": .patched, "latka": .patched, "latke": .patched, "latki": .patched,
        "latkami": .patched, "latkach": .patched, "cetki": .spotted, "cetkami": .spotted, "plamki": .spotted,
        "plamkami": .spotted, "pregowanie": .striped,
    ]

    /// Polish adjective stems (folded): a word is the stem plus one of `adjectiveEndings`.
    private static let adjectiveStems: [(stem: String, marking: Marking)] = [
        ("czarn", .black), ("bial", .white), ("szar", .grey), ("siw", .grey), ("popielat", .grey), ("srebrn", .grey),
        ("brazow", .brown), ("czekoladow", .brown), ("kasztanow", .brown), ("rud", .ginger), ("rudaw", .ginger),
        ("pomaranczow", .ginger), ("kremow", .cream), ("bezow", .cream), ("biszkoptow", .cream), ("piaskow", .cream),
        ("zlocist", .golden), ("zolt", .golden), ("podpalan", .tan), ("pregowan", .striped), ("pregowat", .striped),
        ("moregowat", .striped), ("bur", .striped), ("trojkolorow", .tricolour), ("szylkretow", .tricolour),
        ("laciat", .patched), ("pstrokat", .patched), ("cetkowan", .spotted), ("nakrapian", .spotted),
        ("plamist", .spotted), ("pregowaci", .striped),
    ]

    /// `adjectiveStems` by their first byte, so a word is compared with the few stems that can begin it.
    private static let stemsByFirstByte: [UInt8: [(stem: String, marking: Marking)]] = Dictionary(
        grouping: adjectiveStems,
        by: { $0.stem.utf8.first ?? 0 }
    )

    /// Endings of Polish adjectives after folding (ą → a): every case and gender, and "o" of compounds.
    private static let adjectiveEndings: Set<Substring> = ["y", "i", "a", "e", "ego", "ej", "emu", "ym", "ymi", "ych", "o"]

    /// Adds the marking `token` names, if any.
    private static func classify(_ token: String, into set: inout MarkingSet) {
        if let marking = exactWords[token] {
            set.insert(marking)
            return
        }
        guard let first = token.utf8.first, let stems = stemsByFirstByte[first] else { return }
        for (stem, marking) in stems where token.hasPrefix(stem) {
            let rest = token.dropFirst(stem.count)
            if adjectiveEndings.contains(rest) {
                set.insert(marking)
                return
            }
            // A compound: "czarnobiały" is "czarno" + "biały".
            if rest.count > 3, rest.first == "o" {
                var inner = MarkingSet()
                classify(String(rest.dropFirst()), into: &inner)
                if !inner.isEmpty {
                    set.insert(marking)
                    set.bits |= inner.bits
                    return
                }
            }
        }
    }

    /// Words of a breed field that name no breed (folded).
    private static let breedFiller: Set<String> = [
        "mixed", "mix", "breed", "mongrel", "mutt", "cross", "crossbreed", "crossed", "unknown", "none", "n", "a", "na",
        "other", "domestic", "shorthair", "longhair", "short", "long", "hair", "haired", "dsh", "dlh", "not", "sure",
        "known", "moggy", "mieszaniec", "mieszanka", "mieszanca", "kundel", "kundelek", "kundelka", "kundla", "nieznana",
        "nieznany", "nieznane", "brak", "inna", "inny", "dachowiec", "dachowa", "europejski", "europejska", "krotkowlosy",
        "krotkowlosa", "dlugowlosy", "dlugowlosa", "nierasowy", "nierasowa", "bez", "rasy", "rasa", "wiem", "nie", "typu",
        "w", "typ",
    ]

    /// Polish breed names (as folded keys) and their English keys.
    private static let breedSynonyms: [String: String] = [
        "owczarek niemiecki": "german shepherd", "jamnik": "dachshund", "buldog francuski": "french bulldog",
        "pudel": "poodle", "sznaucer": "schnauzer", "perski": "persian", "syjamski": "siamese",
        "brytyjski": "british", "maine coon": "maine coon", "york": "yorkshire terrier", "yorkshire": "yorkshire terrier",
        "owczarek szkocki": "collie", "golden": "golden retriever", "labrador retriever": "labrador",
        "bokser": "boxer", "mops": "pug", "bigiel": "beagle", "ragdoll": "ragdoll", "sfinks": "sphynx",
    ]
}
