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
        try decodeList(bytes: body, places: places, reusing: .none) { _ in nil }.outcome
    }

    /// `decodeList(bytes:places:)` reusing what an earlier decode learned (`known`, with `item` giving a valid
    /// item back from where it is kept): an item whose bytes were read before is not parsed, validated or
    /// placed again, and the outcome is the same as a whole decode's (docs/performance.md "Steady speed").
    /// `item` answers nil only for a place no snapshot holds; such an item is then decoded anew.
    public static func decodeList(
        bytes body: [UInt8],
        places: PlaceFinder?,
        reusing known: DecodedItems,
        item: (DecodedItems.Place) -> Announcement?
    ) throws(DecodingFailure) -> DecodedList {
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
        // An item reusable only when `item` still has it: asked once, by `known`, before the parser skips it.
        var reusable: (ItemKey, Announcement.Validation, DecodedItems.Place?)?
        func lookUp(_ key: ItemKey) -> Bool {
            if let skipped = known.invalid[key] {
                reusable = (key, .invalid(skipped), nil)
                return true
            }
            guard let place = known.valid[key], var announcement = item(place) else { return false }
            announcement.reunitedAt = nil  // the snapshot marks reunited pets again (`Snapshot.init`)
            reusable = (key, .valid(announcement, known.warnings[key] ?? []), place)
            return true
        }
        let parsed = parser.parseList(wrapperKeys: Set(listWrapperKeys), known: lookUp) { event in
            switch event {
            case .begin(let key):
                finishCurrent()
                if let key { lists[key] = nil }
                currentKey = key
                current = ListBuilder(places: places)
                // A list is about as long as the last one: room for it at once, not doubled (and copied) as it grows.
                current?.reserve(known.valid.count + 64)
            case .element(let element, let key):
                current?.add(Announcement.validate(element), key: key, reusedFrom: nil)
            case .known(let key):
                guard let (found, validation, place) = reusable, found == key else { return }
                current?.add(validation, key: key, reusedFrom: place)
            case .notArray(let key):
                finishCurrent()
                lists[key] = nil
            }
        }
        finishCurrent()
        guard parsed else { throw .notJSON }
        if let bare { return bare.decoded }
        for key in listWrapperKeys {
            if let list = lists[key] { return list.decoded }
        }
        throw .missingListArray
    }

    /// The items of one list array, validated and deduplicated as they are read.
    private struct ListBuilder {
        let places: PlaceFinder?
        var items: [Announcement] = []
        var keys: [ItemKey] = []
        var reusedFrom: [DecodedItems.Place?] = []
        var skipped: [SkippedItem] = []
        var warnings: [FieldWarning] = []
        var invalid: [ItemKey: SkippedItem] = [:]
        var warningsByKey: [ItemKey: [FieldWarning]] = [:]
        var seenIds = Set<String>()

        mutating func reserve(_ count: Int) {
            items.reserveCapacity(count)
            keys.reserveCapacity(count)
            reusedFrom.reserveCapacity(count)
        }

        /// Adds the item with `key` as `validation` says; `reusedFrom`: where it was reused from (already placed).
        mutating func add(_ validation: Announcement.Validation, key: ItemKey, reusedFrom place: DecodedItems.Place?) {
            switch validation {
            case .invalid(let item):
                skipped.append(item)
                invalid[key] = item
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
                items.append(places == nil || place != nil ? announcement : announcement.withNearestPlace(places))
                keys.append(key)
                reusedFrom.append(place)
                warnings.append(contentsOf: itemWarnings)
                if !itemWarnings.isEmpty { warningsByKey[key] = itemWarnings }
            }
        }

        var decoded: DecodedList {
            DecodedList(
                outcome: ListOutcome(items: items, skipped: skipped, warnings: warnings),
                keys: keys,
                reusedFrom: reusedFrom,
                invalid: invalid,
                warnings: warningsByKey
            )
        }
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
