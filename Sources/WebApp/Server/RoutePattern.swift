import PetDomain

/// A route's path, as its entry of the route table writes it (`RouteTable`): `/`-separated segments,
/// each a literal (`poster`), a parameter that is a whole non-empty segment (`{id}`), a parameter with a
/// literal suffix (`{y}.png`), or, last, the rest of the path, one segment or more (`{path...}`). The
/// same value parses request paths (`match`) and prints links (`print`), so the two cannot disagree.
struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        /// A whole segment, never empty, followed by `suffix` (often "").
        case parameter(suffix: String)
        /// The rest of the path, empty segments included, joined with "/".
        case rest
    }

    /// The pattern as written in the table.
    let description: String
    let segments: [Segment]
    /// How many parameters a route of this pattern carries.
    let parameterCount: Int

    init(_ text: String) {
        description = text
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        segments = parts.map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            if part.hasSuffix("...}") { return .rest }
            return .parameter(suffix: String(part[part.index(after: close)...]))
        }
        parameterCount = segments.filter { if case .literal = $0 { false } else { true } }.count
        precondition(!segments.dropLast().contains(.rest), "\(text): {…...} must come last")
    }

    /// The parameters of `parts` (a path split on "/", the leading empty part dropped) when it has this shape.
    func match(_ parts: [Substring]) -> [String]? {
        if case .rest? = segments.last {
            guard parts.count >= segments.count else { return nil }
        } else {
            guard parts.count == segments.count else { return nil }
        }
        var values: [String] = []
        for (index, segment) in segments.enumerated() {
            let part = parts[index]
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let suffix):
                guard part.count > suffix.count, part.hasSuffix(suffix) else { return nil }
                values.append(String(part.dropLast(suffix.count)))
            case .rest:
                values.append(parts[index...].joined(separator: "/"))
            }
        }
        return values
    }

    /// The path of `parameters` (in order), each percent-encoded so that any value parses back
    /// (a rest keeps its "/" and its empty segments: `a//b` and `100%.txt` did not, found by fuzzing).
    func print(_ parameters: [String]) -> String {
        var path = ""
        var next = parameters.makeIterator()
        for segment in segments {
            path += "/"
            switch segment {
            case .literal(let literal): path += literal
            case .parameter(let suffix): path += URLText.encodeComponent(next.next() ?? "") + suffix
            case .rest:
                path += (next.next() ?? "").unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
                    .map { URLText.encodeComponent(String(Substring($0))) }.joined(separator: "/")
            }
        }
        return path.isEmpty ? "/" : path
    }
}
