import Foundation

/// A validated pet photo reference (docs/upstream.md §2 "photoUrl").
public enum Photo: Sendable, Hashable {
    /// A path on the upstream such as `/images/max.jpg`, served to visitors through our `/images/` proxy.
    /// Always starts with `/images/`; a URL path whose `%XX` are escapes (`my%20cat.png`), possibly
    /// holding plain spaces (`my cat.png`) or non-ASCII letters (`żaba.png`), which stand for
    /// themselves. Neither it nor its decoding holds `..`, `//`, backslash or control characters;
    /// it holds no white space other than the plain space.
    case upstreamPath(String)
    /// An absolute `http`/`https` URL, kept exactly as the upstream gave it.
    case absolute(URL)

    /// The reference as text, exactly as received: the path, or the absolute URL string.
    public var urlString: String {
        switch self {
        case .upstreamPath(let path): path
        case .absolute(let url): url.absoluteString
        }
    }
}
