import Foundation

/// The kind of animal an announcement is about (docs/upstream.md §2 "species").
public enum Species: String, Sendable, CaseIterable, Codable {
    /// A dog.
    case dog
    /// A cat.
    case cat
    /// A bird.
    case bird
    /// A rabbit (seed 001 and the backend seeds use it, so it is a first-class species).
    case rabbit
    /// Any other animal.
    case other

    /// English name for pages, e.g. "Dog".
    public var displayName: String {
        switch self {
        case .dog: "Dog"
        case .cat: "Cat"
        case .bird: "Bird"
        case .rabbit: "Rabbit"
        case .other: "Other"
        }
    }

    /// The value the current backend uses, e.g. "DOG" (docs/upstream.md §1, §4).
    public var apiValue: String { rawValue.uppercased() }

    /// Reads an upstream value case-insensitively ("DOG", "dog", "Dog"); anything else, such as
    /// "DINOSAUR" or a breed like "Golden Retriever", is not a species (docs/upstream.md §2).
    public init?(upstream raw: String) {
        self.init(rawValue: TextNormalization.trimmed(raw).lowercased())
    }
}
