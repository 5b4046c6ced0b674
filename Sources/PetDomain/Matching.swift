import Foundation

/// Why a candidate is a possible match, as the API gives it (`code`, `value`) and pages word it
/// (docs/matching.md "Reasons"). Cases are listed in the order a match lists its reasons.
public enum MatchReason: Sendable, Hashable {
    /// Both reports give the same microchip number: a certain match.
    case sameMicrochip
    /// Kilometres between the two places, rounded to one decimal.
    case distanceKm(Double)
    /// Days from the loss to the finding (`found.lastSeenDate - missing.lastSeenDate`), -2...120.
    case daysApart(Int)
    /// Colours and markings both descriptions mention, in `Marking` order.
    case sharedMarkings([Marking])
    /// The same breed; the value is the candidate's breed as written.
    case sameBreed(String)
    /// Both ages are known and differ by at most `Matching.ageTolerance` years.
    case agesAgree

    /// The API's code, e.g. `DISTANCE_KM`.
    public var code: String {
        switch self {
        case .sameMicrochip: "SAME_MICROCHIP"
        case .distanceKm: "DISTANCE_KM"
        case .daysApart: "DAYS_APART"
        case .sharedMarkings: "SHARED_MARKINGS"
        case .sameBreed: "SAME_BREED"
        case .agesAgree: "AGES_AGREE"
        }
    }
}

/// One possible match of a report: a report of the other status in the same snapshot.
public struct PetMatch: Sendable, Hashable {
    /// Position of the matching report in the snapshot's `AnnouncementIndex.items`.
    public let position: Int
    /// Kilometres between the two places (unrounded).
    public let distanceKm: Double
    /// Days from the loss to the finding.
    public let daysApart: Int
    /// Equal microchip numbers: a certain match, ranked before every other.
    public let certain: Bool
    /// The ranking score, one decimal: 0–100 for possible matches, 100 more for a certain one.
    public let score: Double
    /// Why it matches, in the order pages show them.
    public let reasons: [MatchReason]
}

/// What matching compares of one report, derived once from an `Announcement` (pure, no I/O).
public struct MatchProfile: Sendable {
    public let id: String
    public let status: AnnouncementStatus
    public let species: Species
    public let sex: Sex
    public let point: Coordinate?
    /// `lastSeenDate` as days since 1970.
    public let day: Int
    /// The microchip as given; compared by `Matching.chipKey` only when both reports have one.
    public let chip: String?
    /// `MatchLexicon.breedKey`; nil for an unknown breed.
    public let breedKey: String?
    public let breed: String?
    public let age: Int?
    /// Colours and markings of the description and the breed.
    public let markings: MarkingSet

    /// The profile of `pet`.
    public init(_ pet: Announcement) {
        var markings = MatchLexicon.markings(in: pet.description)
        markings.bits |= MatchLexicon.markings(in: pet.breed).bits
        self.init(pet, markings: markings, breedKey: MatchLexicon.breedKey(pet.breed))
    }

    /// The profile of `pet` with its markings and breed key read already (`MatchProfiles`).
    init(_ pet: Announcement, markings: MarkingSet, breedKey: String?) {
        id = pet.id
        status = pet.status
        species = pet.species
        sex = pet.sex
        point = pet.place.coordinate
        day = pet.lastSeenDate.daysSinceEpoch
        chip = pet.microchipNumber
        breed = pet.breed
        self.breedKey = breedKey
        age = pet.age
        self.markings = markings
    }
}

/// The rules and the ranking of possible matches between lost and found reports
/// (docs/matching.md). Pure: the same snapshot and report always give the same matches.
public enum Matching {
    /// Places at most this far apart.
    public static let maxDistanceKm = 25.0
    /// Found at the earliest this many days before the loss (dates are typed by people)…
    public static let earliestDays = -2
    /// …and at the latest this many days after it.
    public static let latestDays = 120
    /// Ages within this many years agree.
    public static let ageTolerance = 2
    /// At most this many matches are kept per report (the API, the feed and the all-matches page).
    public static let maxMatches = 50

    /// The status a report's matches have: found for a missing pet and missing for a found one;
    /// nil for a closed report, which has none.
    public static func otherStatus(_ status: AnnouncementStatus) -> AnnouncementStatus? {
        switch status {
        case .missing: .found
        case .found: .missing
        case .closed: nil
        }
    }

    /// The microchip as compared: letters and digits only, upper case ("985 112-000" = "985112000").
    static func chipKey(_ chip: String?) -> String? {
        guard let chip else { return nil }
        if chip.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return chip }  // the usual case
        let kept = String(String.UnicodeScalarView(chip.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
        return kept.isEmpty ? nil : kept.uppercased()
    }

    /// The match of `candidate` for `report`, or nil when the rules say it is none. Symmetric in
    /// the rules (a lost dog's match has that dog as its match); `position` is the candidate's.
    public static func evaluate(_ report: MatchProfile, _ candidate: MatchProfile, position: Int) -> PetMatch? {
        guard let other = otherStatus(report.status), candidate.status == other, candidate.species == report.species,
            report.sex == candidate.sex || report.sex == .unknown || candidate.sex == .unknown,
            let from = report.point, let to = candidate.point
        else { return nil }
        let distance = from.distanceKm(to: to)
        guard distance <= maxDistanceKm else { return nil }
        let lostDay = report.status == .missing ? report.day : candidate.day
        let foundDay = report.status == .found ? report.day : candidate.day
        let days = foundDay - lostDay
        guard days >= earliestDays, days <= latestDays else { return nil }
        var certain = false
        if let left = chipKey(report.chip), let right = chipKey(candidate.chip) {
            guard left == right else { return nil }
            certain = true
        }

        var reasons: [MatchReason] = []
        reasons.reserveCapacity(6)
        if certain { reasons.append(.sameMicrochip) }
        reasons.append(.distanceKm((distance * 10).rounded() / 10))
        reasons.append(.daysApart(days))
        // The parts of the score (docs/matching.md "Ranking"): the first kilometres and days
        // count most (a logarithmic scale), and a clear difference counts against.
        var score = 30 * (1 - log(1 + distance) / log(1 + maxDistanceKm))
        score += days < 0 ? 14 : 25 * (1 - log(1 + Double(days)) / log(1 + Double(latestDays)))
        let shared = report.markings.intersection(candidate.markings)
        if !shared.isEmpty {
            reasons.append(.sharedMarkings(shared.markings))
            score += 8 * Double(min(2, shared.markings.count))
        } else if !report.markings.isEmpty, !candidate.markings.isEmpty {
            score -= 15  // both describe the coat and have nothing in common
        }
        if let left = report.breedKey, let right = candidate.breedKey {
            if MatchLexicon.sameBreed(left, right) {
                reasons.append(.sameBreed(candidate.breed ?? right))
                score += 15
            } else {
                score -= 15
            }
        }
        if let left = report.age, let right = candidate.age {
            if abs(left - right) <= ageTolerance {
                reasons.append(.agesAgree)
                score += 6
            } else {
                score -= 8
            }
        }
        if report.sex != .unknown, report.sex == candidate.sex { score += 4 }
        score = max(0, min(100, score))
        if certain { score += 100 }
        return PetMatch(
            position: position,
            distanceKm: distance,
            daysApart: days,
            certain: certain,
            score: (score * 10).rounded() / 10,
            reasons: reasons
        )
    }

    /// The matches of `pet` in `index`, best first, at most `maxMatches`: only the reports in the
    /// grid cells within `maxDistanceKm` of it are looked at (`AnnouncementIndex.page` with a range,
    /// of the other status and the same species), never the whole snapshot; the sex and date rules
    /// are checked on the item before its description is read, and each item's description is read
    /// once per `profiles` (one per snapshot). `pet` need not be in the index (a report just made);
    /// when it is, it is never its own match.
    public static func matches(for pet: Announcement, in index: AnnouncementIndex, profiles: MatchProfiles? = nil) -> [PetMatch] {
        let profiles = profiles ?? MatchProfiles(index)
        let profile = MatchProfile(pet)
        guard let other = otherStatus(profile.status), let point = profile.point else { return [] }
        // `isInRange` keeps distances below the range: the next value above 25 keeps 25 itself.
        let query = AnnouncementQuery(status: other, species: profile.species, sort: .nearest, origin: point, rangeKm: maxDistanceKm.nextUp)
        let nearby = index.page(query, offset: 0, limit: .max)
        let items = index.items
        var found: [PetMatch] = []
        for position in nearby.positions {
            // The cheap rules first, read in place (no copy of the item).
            let sex = items[position].sex
            guard profile.sex == sex || profile.sex == .unknown || sex == .unknown else { continue }
            let days = items[position].lastSeenDate.daysSinceEpoch - profile.day
            let fromLoss = profile.status == .missing ? days : -days
            guard fromLoss >= earliestDays, fromLoss <= latestDays, items[position].id != profile.id else { continue }
            if let match = evaluate(profile, profiles.profile(at: position), position: position) { found.append(match) }
        }
        found.sort { left, right in
            if left.score != right.score { return left.score > right.score }
            if left.distanceKm != right.distanceKm { return left.distanceKm < right.distanceKm }
            return items[left.position].id < items[right.position].id
        }
        return Array(found.prefix(maxMatches))
    }
}

/// What matching reads of a snapshot's descriptions and breeds, each item's read once when first
/// needed and kept for the snapshot (docs/matching.md "Cost"): 18 bytes per item, allocated when
/// the snapshot's first match is looked for. Safe to share between threads.
public final class MatchProfiles: @unchecked Sendable {
    private let index: AnnouncementIndex
    private let lock = NSLock()
    /// Per position: the markings' bits, or `unread`.
    private var markings: [UInt16]
    private var breedKeys: [String?]
    private static let unread = UInt16.max

    /// Empty profiles of `index`'s items.
    public init(_ index: AnnouncementIndex) {
        self.index = index
        markings = Array(repeating: MatchProfiles.unread, count: index.count)
        breedKeys = Array(repeating: nil, count: index.count)
    }

    /// Profiles of `index`'s items with those `old` read of unchanged items (`carried[position]`: the item's
    /// position in `old`'s index, -1 for a new or changed one) kept, so a new list reads only what changed.
    public init(_ index: AnnouncementIndex, carrying old: MatchProfiles, carried: [Int32]) {
        self.index = index
        var markings = Array(repeating: MatchProfiles.unread, count: index.count)
        var breedKeys = [String?](repeating: nil, count: index.count)
        old.lock.withLock {
            for position in 0..<min(index.count, carried.count) {
                let source = Int(carried[position])
                guard source >= 0, source < old.markings.count else { continue }
                markings[position] = old.markings[source]
                breedKeys[position] = old.breedKeys[source]
            }
        }
        self.markings = markings
        self.breedKeys = breedKeys
    }

    /// The profile of the item at `position`.
    public func profile(at position: Int) -> MatchProfile {
        let item = index.items[position]
        let kept = lock.withLock { markings[position] == MatchProfiles.unread ? nil : (markings[position], breedKeys[position]) }
        if let (bits, breedKey) = kept {
            var set = MarkingSet()
            set.bits = bits
            return MatchProfile(item, markings: set, breedKey: breedKey)
        }
        let made = MatchProfile(item)
        lock.withLock {
            markings[position] = made.markings.bits
            breedKeys[position] = made.breedKey
        }
        return made
    }
}

extension ValidReport {
    /// The announcement this report becomes upstream as far as matching reads it, with the id the
    /// upstream gave: the report result page finds its matches before the snapshot holds it.
    public func announcement(id: String, createdAt: Date) -> Announcement {
        Announcement(
            id: id,
            petName: petName,
            species: species,
            status: status,
            breed: breed,
            sex: sex,
            age: age,
            description: description,
            microchipNumber: microchipNumber,
            place: .coordinates(coordinate, address: nil),
            lastSeenDate: lastSeenDate,
            createdAt: createdAt,
            updatedAt: createdAt
        )
    }
}
