import Foundation
import MicroHTTP
import Synchronization

/// Rendered pages (and encoded API bodies) kept for reuse: a page is a pure function of its URL and
/// the upstream data (product-spec §4), so the same URL over the same cached data renders the same bytes. Keyed by
/// path + query; an entry is valid only for the data version (`fetchedAt`) it was rendered from.
/// Stale pages (with their "saved N minutes ago" notice) are never kept.
final class RenderedPages: Sendable {
    private struct Entry {
        let version: Date
        let response: Response
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    /// Keeps at most `capacity` pages (about 40 KB each); when full, it starts over.
    init(capacity: Int = 512) { self.capacity = capacity }

    /// The response rendered for `key` from data `version`, rendering it with `render` when absent.
    /// Only 200 responses are kept. The caller applies conditional-GET handling afterwards.
    func response(for key: String, version: Date, render: () -> Response) -> Response {
        if let hit = entries.withLock({ $0[key] }), hit.version == version {
            return hit.response
        }
        let response = render()
        guard response.status == 200 else { return response }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(version: version, response: response)
        }
        return response
    }
}
