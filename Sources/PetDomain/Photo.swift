import Foundation

/// A validated pet photo reference (product-spec §2 "photoUrl").
public enum Photo: Sendable, Hashable {
    /// A path on the upstream such as `/images/max.jpg`, served to visitors through our `/images/` proxy.
    /// Always starts with `/images/` and holds no `..`, `//`, backslash, white space or control characters.
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
