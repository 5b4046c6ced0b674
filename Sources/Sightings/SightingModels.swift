import Foundation

/// "I've seen this pet" (docs/sightings.md): what a passer-by tells the pet's owner, and only the owner.
/// Never part of a public page, the API, a feed, the map, a poster or a cache.
public struct Sighting: Sendable, Equatable {
    /// A random id (32 hex digits, `AlertTokens.newID`): the owner's page and its photo links name it.
    public let id: String
    /// The announcement it is about.
    public let petID: String
    /// When the finder saw the pet (not in the future, at most `SightingRules.maxAge` back).
    public let seenAt: Date
    public let latitude: Double
    public let longitude: Double
    /// The place's name as the finder typed it, or the nearest place we know (nil: none within reach).
    public let placeName: String?
    /// What happened, plain text, at most `SightingRules.maxNoteLength` characters.
    public let note: String
    /// The finder's phone or e-mail, for the owner only (nil: not given).
    public let contact: String?
    /// The photo's size when one was sent (its bytes are read with `SightingStore.photo`).
    public let photo: SightingPhotoInfo?
    /// When it reached us: the 180-day expiry counts from here.
    public let createdAt: Date

    public init(
        id: String,
        petID: String,
        seenAt: Date,
        latitude: Double,
        longitude: Double,
        placeName: String?,
        note: String,
        contact: String?,
        photo: SightingPhotoInfo?,
        createdAt: Date
    ) {
        self.id = id
        self.petID = petID
        self.seenAt = seenAt
        self.latitude = latitude
        self.longitude = longitude
        self.placeName = placeName
        self.note = note
        self.contact = contact
        self.photo = photo
        self.createdAt = createdAt
    }
}

/// A sighting's photo, made safe as report photos are (re-encoded JPEG, no EXIF or GPS: docs/photos.md).
public struct SightingPhoto: Sendable, Equatable {
    public let jpeg: [UInt8]
    public let width: Int
    public let height: Int

    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }

    public var info: SightingPhotoInfo { SightingPhotoInfo(width: width, height: height, bytes: jpeg.count) }
}

/// What a sighting's list says of its photo without carrying its bytes.
public struct SightingPhotoInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bytes: Int

    public init(width: Int, height: Int, bytes: Int) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// "We are reunited" (or, for a found report, "returned to its owner"): kept by us, since the backend has no
/// edit or close (product spec §6).
public struct Reunion: Sendable, Equatable {
    public let petID: String
    public let at: Date

    public init(petID: String, at: Date) {
        self.petID = petID
        self.at = at
    }

    /// Whether it may still be undone at `now` (`SightingRules.undoWithin`).
    public func mayUndo(now: Date) -> Bool { now.timeIntervalSince(at) <= SightingRules.undoWithin }
}

/// The numbers docs/sightings.md states.
public enum SightingRules {
    /// How far back a sighting may be dated.
    public static let maxAge: TimeInterval = 30 * 24 * 3600
    /// The longest note.
    public static let maxNoteLength = 1_000
    /// The longest contact (a phone or an address).
    public static let maxContactLength = 200
    /// A sighting is forgotten this long after it was made...
    public static let keptFor: TimeInterval = 180 * 24 * 3600
    /// ...or this long after its pet was reunited, whichever comes first.
    public static let keptAfterReunion: TimeInterval = 90 * 24 * 3600
    /// "We are reunited" may be taken back within a day.
    public static let undoWithin: TimeInterval = 24 * 3600
    /// How long the owner's page stays open after the management code was given (the cookie's life).
    public static let accessFor: TimeInterval = 30 * 60
}

/// The sighting store is down or slower than its deadline: the pages that need it fail closed (503).
public struct SightingStoreUnavailable: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "sighting store unavailable during \(operation): \(detail)" }
}
