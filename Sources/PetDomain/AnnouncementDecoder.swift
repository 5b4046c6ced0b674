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
        try decodeList(bytes: [UInt8](body))
    }

    /// `decodeList(_:)` over the body as read, without copying it: each item is validated as soon
    /// as it is parsed and its value tree dropped, so the whole list never exists as a tree
    /// (docs/performance.md "Memory"). The same answers as collecting the tree first: with a key
    /// repeated the last one wins, and the wrappers are tried in `listWrapperKeys` order.
    /// `places`: each valid item gets its nearest place as it is read (`withNearestPlace`), so
    /// the list is not held twice, before and after, while a snapshot is made.
    public static func decodeList(bytes body: [UInt8], places: PlaceFinder? = nil) throws(DecodingFailure) -> ListOutcome {
        var parser = JSONParser(bytes: body)
        var lists: [String: ListBuilder] = [:]
        var bare: ListBuilder?
        var current: ListBuilder?
        var currentKey: String?
        func finishCurrent() {
            guard let list = current else { return }
            if let key = currentKey { lists[key] = list } else { bare = list }
            current = nil
        }
        let parsed = parser.parseList(wrapperKeys: Set(listWrapperKeys)) { event in
            switch event {
            case .begin(let key):
                finishCurrent()
                if let key { lists[key] = nil }
                currentKey = key
                current = ListBuilder(places: places)
            case .element(let element):
                current?.add(element)
            case .notArray(let key):
                finishCurrent()
                lists[key] = nil
            }
        }
        finishCurrent()
        guard parsed else { throw .notJSON }
        if let bare { return bare.outcome }
        for key in listWrapperKeys {
            if let list = lists[key] { return list.outcome }
        }
        throw .missingListArray
    }

    /// The items of one list array, validated and deduplicated as they are read.
    private struct ListBuilder {
        let places: PlaceFinder?
        var items: [Announcement] = []
        var skipped: [SkippedItem] = []
        var warnings: [FieldWarning] = []
        var seenIds = Set<String>()

        mutating func add(_ element: JSONValue) {
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
                    return
                }
                items.append(places == nil ? announcement : announcement.withNearestPlace(places))
                warnings.append(contentsOf: itemWarnings)
            }
        }

        var outcome: ListOutcome { ListOutcome(items: items, skipped: skipped, warnings: warnings) }
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
}
