import Foundation

/// A body that cannot be read at all: the fetch failed, it is not an empty list (docs/upstream.md §1).
public enum DecodingFailure: Error, Sendable, Equatable {
    /// The body is not JSON (or not UTF-8, or empty).
    case notJSON
    /// The JSON has no `data` / `announcements` array and is not an array itself.
    case missingListArray
    /// A details body is JSON but not an object (nor `{"data":{…}}`).
    case notAnObject

    /// A short message for logs; never shown to visitors as is.
    public var message: String {
        switch self {
        case .notJSON: "body is not JSON"
        case .missingListArray: "list wrapper has no array"
        case .notAnObject: "details body is not an object"
        }
    }
}

/// Why a details body gave no announcement (docs/upstream.md §4: a 502 "Unable to load pet details").
public enum DetailsFailure: Error, Sendable, Equatable {
    /// The body itself could not be read.
    case body(DecodingFailure)
    /// The body was read, but the announcement breaks a rule of docs/upstream.md §2.
    case invalid(SkippedItem)

    /// A short message for logs.
    public var message: String {
        switch self {
        case .body(let failure): failure.message
        case .invalid(let item): "invalid announcement (\(item.reason.rawValue)): \(item.detail)"
        }
    }
}
