import Foundation

/// Why an upstream item was left out (docs/upstream.md §2, "invalid → skip / error"); the raw value is
/// what the metrics label uses, so keep it stable.
public enum SkipReason: String, Sendable, CaseIterable {
    /// The list element is not a JSON object.
    case notAnObject
    /// `id` missing, empty, or neither a string nor an integer.
    case invalidId
    /// `status` missing or not one of the known spellings.
    case invalidStatus
    /// `species` missing or not dog, cat, bird, rabbit, other.
    case invalidSpecies
    /// `lastSeenDate` not a real `YYYY-MM-DD` date.
    case invalidLastSeenDate
    /// `createdAt` not ISO 8601.
    case invalidCreatedAt
    /// `updatedAt` neither ISO 8601 nor `yyyy-MM-dd HH:mm:ss`.
    case invalidUpdatedAt
    /// `updatedAt` is earlier than `createdAt`.
    case updatedBeforeCreated
    /// No usable coordinates (or dialect B city), or coordinates out of range.
    case invalidPlace
    /// An earlier valid item already had this id (seed 003: keep the first).
    case duplicateId
}

/// One upstream item that was left out, for the log and the skip metric.
public struct SkippedItem: Sendable, Hashable {
    /// The item's id when it had a usable one.
    public var id: String?
    /// Why it was left out.
    public var reason: SkipReason
    /// Detail for the log, e.g. "species 'DINOSAUR'"; upstream text in it is shortened.
    public var detail: String

    /// Creates a skipped-item record.
    public init(id: String?, reason: SkipReason, detail: String) {
        self.id = id
        self.reason = reason
        self.detail = detail
    }
}

/// An optional value that was dropped while the item itself was kept (bad email, age, reward, photo).
public struct FieldWarning: Sendable, Hashable {
    /// The item's id.
    public var id: String
    /// The upstream field name, e.g. "email".
    public var field: String
    /// Detail for the log, e.g. "not an e-mail address: 'owner at example'".
    public var detail: String

    /// Creates a field warning.
    public init(id: String, field: String, detail: String) {
        self.id = id
        self.field = field
        self.detail = detail
    }
}

/// The result of decoding a list body: valid items plus what was left out and why.
public struct ListOutcome: Sendable {
    /// Valid items in upstream order, duplicates removed (the first valid one is kept).
    public var items: [Announcement]
    /// Left-out items in upstream order.
    public var skipped: [SkippedItem]
    /// Dropped optional values of kept items.
    public var warnings: [FieldWarning]

    /// Creates an outcome.
    public init(items: [Announcement], skipped: [SkippedItem], warnings: [FieldWarning]) {
        self.items = items
        self.skipped = skipped
        self.warnings = warnings
    }
}
