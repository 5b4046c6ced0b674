import Foundation
import PetDomain

/// Upstream paths, built in one place (docs/upstream.md §1).
enum UpstreamPaths {
    /// `/api/v1/announcements`: the whole list, without location (location, range and filters
    /// are answered locally from one snapshot, docs/scaling.md).
    static let list = "/api/v1/announcements"

    /// `POST /api/v1/announcements`: where a report is created.
    static let announcements = "/api/v1/announcements"

    /// `POST /api/v1/announcements/{id}/photos`: where a report's photo goes.
    static func photos(id: String) -> String {
        "/api/v1/announcements/" + URLText.encodeComponent(id) + "/photos"
    }

    /// `/api/v1/announcements/{id}` with the id percent-encoded.
    static func details(id: String) -> String {
        "/api/v1/announcements/" + URLText.encodeComponent(id)
    }

    /// `/images/<path>` when every segment is safe (no `..`, `.`, empty, backslash or control
    /// characters), each percent-encoded; nil otherwise, so the proxy can never leave `/images/`.
    static func image(_ path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty,
            segments.allSatisfy({ segment in
                !segment.isEmpty && segment != "." && segment != ".." && !segment.contains("\\")
                    && !segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            })
        else { return nil }
        return "/images/" + segments.map { URLText.encodeComponent(String($0)) }.joined(separator: "/")
    }
}
