import CompiledTemplates
import Foundation
import PetDomain
import Synchronization

/// The Atom `<entry>` of each announcement of the snapshot, written once per snapshot generation
/// and language (docs/style.md "Precompute per data change"): a feed request only picks entries and
/// writes the searcher's distance into each summary, so a feed for a new location costs about
/// what a list page does. Written when first asked for (an entry that no feed's newest 50 reach is
/// never written), so memory follows what is read, not the size of the snapshot.
final class FeedEntries: Sendable {
    /// One entry's XML, split where the search's distance goes (the end of its summary).
    struct Fragment: Sendable {
        let beforeDistance: [UInt8]
        let afterDistance: [UInt8]
        /// `createdAt` in whole seconds since 1970: the entry's `published`/`updated`.
        let created: Int64
        /// `created` as RFC 3339, for the feed's `updated` when this entry is its newest.
        let createdText: String

        /// Kept for the snapshot's life, so each part holds only its own bytes: written by
        /// appending, an array keeps up to twice its size (docs/performance.md "Memory").
        init(beforeDistance: [UInt8], afterDistance: [UInt8], created: Int64, createdText: String) {
            self.beforeDistance = beforeDistance.fitted()
            self.afterDistance = afterDistance.fitted()
            self.created = created
            self.createdText = createdText
        }
    }

    private struct Kept {
        let generation: Int
        /// By position in the snapshot's items; nil until first asked for.
        var fragments: [Fragment?]
    }

    private let kept = Mutex<[Language: Kept]>([:])
    /// The tag URI authority of the public base URL (`FeedSearch.authority(ofBaseURL:)`), found once.
    let authority: String

    /// Entries for a site whose public base URL is `baseURL`.
    init(baseURL: String) {
        authority = FeedSearch.authority(ofBaseURL: baseURL)
    }

    /// The fragments of the items of `all` at `positions`, in that order, in `language`; those not
    /// written yet for this generation are made by `make` (outside the lock) and kept.
    func fragments(
        generation: Int,
        language: Language,
        all: [Announcement],
        positions: [Int],
        make: (Announcement) -> Fragment
    ) -> [Fragment] {
        var found: [Fragment?] = kept.withLock { state in
            guard let current = state[language], current.generation == generation else { return Array(repeating: nil, count: positions.count) }
            return positions.map { current.fragments[$0] }
        }
        var made: [(position: Int, fragment: Fragment)] = []
        for slot in found.indices where found[slot] == nil {
            let fragment = make(all[positions[slot]])
            found[slot] = fragment
            made.append((positions[slot], fragment))
        }
        if !made.isEmpty {
            kept.withLock { state in
                let keptGeneration = state[language]?.generation ?? Int.min
                guard keptGeneration <= generation else { return }  // a request still on an older snapshot
                if keptGeneration < generation {
                    state[language] = Kept(generation: generation, fragments: Array(repeating: nil, count: all.count))
                }
                for (position, fragment) in made { state[language]?.fragments[position] = fragment }
            }
        }
        return found.compactMap { $0 }
    }
}

/// XML 1.0 character data and attribute values (RFC 4287 documents are XML): the HTML escapes
/// (`& < > " '`, all valid in XML), after dropping the characters XML cannot carry at all (C0
/// controls other than tab, LF and CR, lone surrogates cannot occur in a Swift String, U+FFFE/FFFF),
/// so a hostile upstream row cannot make the feed unreadable.
enum XMLText {
    /// Appends `text` to `output`, escaped.
    static func escape(_ text: String, into output: inout [UInt8]) {
        guard text.unicodeScalars.allSatisfy(isAllowed) else {
            HTMLText.escape(String(String.UnicodeScalarView(text.unicodeScalars.filter(isAllowed))), into: &output)
            return
        }
        HTMLText.escape(text, into: &output)
    }

    /// Appends `<name>text</name>` and a line break.
    static func element(_ name: String, _ text: String, into output: inout [UInt8]) {
        output += "<\(name)>".utf8
        escape(text, into: &output)
        output += "</\(name)>\n".utf8
    }

    /// Appends `<link rel="…" [type="…"] href="…"/>` and a line break.
    static func link(rel: String, type: String?, href: String, into output: inout [UInt8]) {
        output += "<link rel=\"\(rel)\"".utf8
        if let type { output += " type=\"\(type)\"".utf8 }
        output += " href=\"".utf8
        escape(href, into: &output)
        output += "\"/>\n".utf8
    }

    /// XML 1.0's `Char` production.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension Date {
    /// Whole seconds since 1970 (fractions dropped, as `Last-Modified` and the feed's dates show them).
    var wholeSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

/// RFC 3339 date-times as Atom writes them (`2025-11-12T10:00:00Z`).
enum AtomDate {
    /// `seconds` since 1970 in UTC.
    static func string(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}

extension [UInt8] {
    /// These bytes in an array of their own size, when more than an eighth of its room is unused:
    /// for what is kept long (card and feed fragments), not for what is sent once.
    func fitted() -> [UInt8] {
        guard capacity - count > capacity / 8 else { return self }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            written = buffer.initialize(fromContentsOf: self)
        }
    }
}
