import Foundation

/// Reads upstream bodies of every dialect into validated announcements (docs/upstream.md §1–§2).
public enum AnnouncementDecoder {
    /// The list wrappers, in the order they are tried: `data` (dialects A, B, C), `announcements` (D).
    static let listWrapperKeys = ["data", "announcements"]

    /// Decodes a list body: `{"data":[…]}`, `{"announcements":[…]}` or a bare array.
    ///
    /// Invalid items are skipped, never the whole list; duplicated ids keep the first valid item
    /// (seed 003). A body that is not JSON, or has no list array (`{"data":null}`, `{"data":{}}`),
    /// throws: that is a failed fetch, not an empty list (docs/upstream.md §1).
    public static func decodeList(_ body: Data) throws(DecodingFailure) -> ListOutcome {
        guard let document = JSONValue.parse(body) else { throw .notJSON }
        guard let elements = listElements(of: document) else { throw .missingListArray }

        var items: [Announcement] = []
        items.reserveCapacity(elements.count)
        var skipped: [SkippedItem] = []
        var warnings: [FieldWarning] = []
        var seenIds = Set<String>(minimumCapacity: elements.count)
        for element in elements {
            switch Announcement.validate(element) {
            case .invalid(let item):
                skipped.append(item)
            case .valid(let announcement, let itemWarnings):
                // Deduplicate among valid items only: an invalid first copy must not hide a valid later one.
                guard seenIds.insert(announcement.id).inserted else {
                    skipped.append(
                        SkippedItem(
                            id: announcement.id,
                            reason: .duplicateId,
                            detail: "id '\(TextNormalization.excerpt(announcement.id))' already seen"
                        )
                    )
                    continue
                }
                items.append(announcement)
                warnings.append(contentsOf: itemWarnings)
            }
        }
        return ListOutcome(items: items, skipped: skipped, warnings: warnings)
    }

    /// Decodes a details body: a bare object (the backend's shape) or one wrapped as `{"data":{…}}`.
    public static func decodeDetails(_ body: Data) -> Result<(Announcement, [FieldWarning]), DetailsFailure> {
        guard let document = JSONValue.parse(body) else { return .failure(.body(.notJSON)) }
        guard case .object = document else { return .failure(.body(.notAnObject)) }
        var item = document
        // Unwrap only a real wrapper: an object with an `id` is the announcement itself.
        if document["id"] == nil, let wrapped = document["data"] {
            guard case .object = wrapped else { return .failure(.body(.notAnObject)) }
            item = wrapped
        }
        switch Announcement.validate(item) {
        case .valid(let announcement, let warnings): return .success((announcement, warnings))
        case .invalid(let skipped): return .failure(.invalid(skipped))
        }
    }

    /// The array holding the items, or nil when the body has none.
    private static func listElements(of document: JSONValue) -> [JSONValue]? {
        switch document {
        case .array(let elements):
            return elements
        case .object:
            for key in listWrapperKeys {
                if case .array(let elements) = document[key] { return elements }
            }
            return nil
        default:
            return nil
        }
    }
}
