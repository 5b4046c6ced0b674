import Foundation

/// A deterministic, realistic set of lost and found reports for measuring matching
/// (docs/matching.md "How well it ranks"): pairs of reports of the same animal, one by its owner
/// and one by its finder, written differently (English or Polish, other inflections, fewer
/// details, a guessed age, an unknown sex, "mieszaniec" for a breed), among many near misses of
/// the same species, in the same cities, in the same weeks. The tests assert a floor on how often
/// the true match ranks first; the domain benchmark uses it for the matching figures. Not used
/// by the server: package access, so PetDomain's public API does not carry it.
package struct MatchCorpus: Sendable {
    /// Every report, pairs and near misses shuffled together.
    package let items: [Announcement]
    /// For each pair, the ids of the missing report and of the found one.
    package let pairs: [(missing: String, found: String)]

    /// `pairCount` pairs among `decoyCount` other reports, the same for the same `seed`.
    package init(pairCount: Int, decoyCount: Int, seed: UInt64) {
        var random = SplitMix(state: seed)
        var items: [Announcement] = []
        var pairs: [(String, String)] = []
        items.reserveCapacity(pairCount * 2 + decoyCount)
        for number in 0..<pairCount {
            let pet = Pet.random(using: &random)
            let lostDay = 20_300 + Int.random(in: 0...120, using: &random)
            let lostPoint = pet.city.point(using: &random)
            let missing = pet.ownerReport(id: "m\(number)", day: lostDay, point: lostPoint, using: &random)
            // Most pets are found close by within days; a few far or weeks later, a few dated a day early.
            let km =
                Double.random(in: 0...1, using: &random) < 0.8
                ? Double.random(in: 0.1...4, using: &random) : Double.random(in: 4...20, using: &random)
            let daysLater: Int
            switch Double.random(in: 0...1, using: &random) {
            case ..<0.05: daysLater = Int.random(in: -2...(-1), using: &random)
            case ..<0.75: daysLater = Int.random(in: 0...7, using: &random)
            case ..<0.95: daysLater = Int.random(in: 8...40, using: &random)
            default: daysLater = Int.random(in: 41...110, using: &random)
            }
            let found = pet.finderReport(
                id: "f\(number)",
                day: lostDay + daysLater,
                point: lostPoint.moved(km: km, using: &random),
                using: &random
            )
            items.append(missing)
            items.append(found)
            pairs.append((missing.id, found.id))
        }
        for number in 0..<decoyCount {
            let pet = Pet.random(using: &random)
            let day = 20_300 + Int.random(in: -10...140, using: &random)
            let point = pet.city.point(using: &random)
            let decoy =
                Bool.random(using: &random)
                ? pet.ownerReport(id: "d\(number)", day: day, point: point, using: &random)
                : pet.finderReport(id: "d\(number)", day: day, point: point, using: &random)
            items.append(decoy)
        }
        items.shuffle(using: &random)
        self.items = items
        self.pairs = pairs
    }

    /// A seeded generator (SplitMix64), so every run builds the same set.
    package struct SplitMix: RandomNumberGenerator, Sendable {
        var state: UInt64
        /// Starts from `state`.
        package init(state: UInt64) { self.state = state }
        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct City {
        let latitude: Double
        let longitude: Double
        /// Reports spread about this many km around the centre.
        let spreadKm: Double

        static let all = [
            City(latitude: 52.2297, longitude: 21.0122, spreadKm: 9),
            City(latitude: 50.0647, longitude: 19.9450, spreadKm: 7),
            City(latitude: 51.1079, longitude: 17.0385, spreadKm: 7),
        ]

        func point(using random: inout SplitMix) -> Coordinate {
            Coordinate(latitude: latitude, longitude: longitude)?.moved(km: Double.random(in: 0...spreadKm, using: &random), using: &random)
                ?? Coordinate(latitude: latitude, longitude: longitude)!
        }
    }

    /// One animal as it really is; each report tells part of it.
    struct Pet {
        let species: Species
        let sex: Sex
        let age: Int
        let breed: String?
        let coat: [Marking]
        let city: City
        let chip: String?
        /// Something else about it (a collar, a white paw, shy…), the same for every report: an index in the extras.
        let trait: Int

        static let catCoats: [[Marking]] = [
            [.black], [.black, .white], [.ginger], [.ginger, .white], [.grey], [.grey, .striped], [.brown, .striped],
            [.tricolour], [.white], [.cream], [.black, .white], [.black],
        ]
        static let dogCoats: [[Marking]] = [
            [.black], [.brown], [.golden], [.black, .tan], [.white], [.black, .white], [.brown, .white], [.striped],
            [.cream], [.grey, .merle], [.black], [.ginger],
        ]
        static let dogBreeds = ["Labrador", "German Shepherd", "Dachshund", "Beagle", "Border Collie", "Husky", "Pug", "Yorkshire Terrier"]
        static let catBreeds = ["Persian", "Maine Coon", "Siamese", "British Shorthair"]

        static func random(using random: inout SplitMix) -> Pet {
            let species: Species = Double.random(in: 0...1, using: &random) < 0.5 ? .cat : .dog
            let coats = species == .cat ? catCoats : dogCoats
            let breeds = species == .cat ? catBreeds : dogBreeds
            let pedigree = Double.random(in: 0...1, using: &random) < (species == .cat ? 0.2 : 0.55)
            return Pet(
                species: species,
                sex: Bool.random(using: &random) ? .male : .female,
                age: Int.random(in: 1...14, using: &random),
                breed: pedigree ? breeds.randomElement(using: &random) : nil,
                coat: coats.randomElement(using: &random) ?? [.black],
                city: City.all.randomElement(using: &random) ?? City.all[0],
                chip: Double.random(in: 0...1, using: &random) < 0.4 ? String(Int.random(in: 100_000_000...999_999_999, using: &random)) : nil,
                trait: Int.random(in: 0..<6, using: &random)
            )
        }

        /// The owner's report: name, sex, age, breed, chip when known, a full description.
        func ownerReport(id: String, day: Int, point: Coordinate, using random: inout SplitMix) -> Announcement {
            let polish = Bool.random(using: &random)
            return MatchCorpus.announcement(
                id: id,
                status: .missing,
                species: species,
                breed: breed ?? (Bool.random(using: &random) ? nil : (polish ? "mieszaniec" : "mixed")),
                sex: sex,
                age: age,
                description: describe(coat, polish: polish, trait: trait, using: &random),
                chip: chip,
                day: day,
                point: point
            )
        }

        /// The finder's report: often no sex, a guessed age, a breed guess, part of the coat.
        func finderReport(id: String, day: Int, point: Coordinate, using random: inout SplitMix) -> Announcement {
            let polish = Bool.random(using: &random)
            let guessedAge = Double.random(in: 0...1, using: &random) < 0.5 ? max(0, age + Int.random(in: -3...3, using: &random)) : nil
            let seen = coat.count > 1 && Bool.random(using: &random) ? [coat[0]] : coat
            let breedGuess: String?
            switch Double.random(in: 0...1, using: &random) {
            case ..<0.35: breedGuess = breed.map { polish ? MatchCorpus.polishBreed[$0] ?? $0 : $0.lowercased() }
            case ..<0.6: breedGuess = polish ? "kundel" : "mixed breed"
            default: breedGuess = nil
            }
            return MatchCorpus.announcement(
                id: id,
                status: .found,
                species: species,
                breed: breedGuess,
                sex: Double.random(in: 0...1, using: &random) < 0.55 ? .unknown : sex,
                age: guessedAge,
                description: describe(seen, polish: polish, trait: Bool.random(using: &random) ? trait : 5, using: &random),
                chip: chip != nil && Double.random(in: 0...1, using: &random) < 0.3 ? chip : nil,
                day: day,
                point: point
            )
        }

        func describe(_ markings: [Marking], polish: Bool, trait: Int, using random: inout SplitMix) -> String {
            if polish {
                let words = markings.map { (MatchCorpus.polishForms[$0] ?? [$0.rawValue]).randomElement(using: &random) ?? $0.rawValue }
                let noun = species == .cat ? (sex == .female ? "kotka" : "kot") : (sex == .female ? "suczka" : "pies")
                let extras = ["z obrożą", "bardzo płochliwy", "przyjazny, podchodzi do ludzi", "z białą łapką", "ma zadrapanie na uchu", ""]
                return ([words.joined(separator: " i "), noun, extras[trait]]).joined(separator: " ")
            }
            let words = markings.map(\.rawValue).joined(separator: " and ")
            let noun = species == .cat ? "cat" : "dog"
            let extras = ["with a collar", "very shy", "friendly, comes to people", "one white paw", "scratch on the left ear", ""]
            return [words, noun, extras[trait]].joined(separator: " ")
        }
    }

    static let polishBreed = [
        "German Shepherd": "owczarek niemiecki", "Dachshund": "jamnik", "Pug": "mops", "Persian": "perski",
        "Siamese": "syjamski", "British Shorthair": "brytyjski krótkowłosy", "Yorkshire Terrier": "york",
    ]

    static let polishForms: [Marking: [String]] = [
        .black: ["czarny", "czarna", "czarnym", "czarne"], .white: ["biały", "biała", "białe", "białymi"],
        .grey: ["szary", "szara", "siwy"], .brown: ["brązowy", "brązowa", "czekoladowy"], .ginger: ["rudy", "ruda", "rudego"],
        .cream: ["kremowy", "beżowa"], .golden: ["złocisty", "żółta"], .tan: ["podpalany", "podpalana"],
        .striped: ["pręgowany", "pręgowana", "bury"], .tricolour: ["trójkolorowa", "szylkretowa"],
        .patched: ["łaciaty"], .spotted: ["cętkowany"], .merle: ["merle"],
    ]

    static func announcement(
        id: String,
        status: AnnouncementStatus,
        species: Species,
        breed: String?,
        sex: Sex,
        age: Int?,
        description: String,
        chip: String?,
        day: Int,
        point: Coordinate
    ) -> Announcement {
        let date = CalendarDate(daysSinceEpoch: day) ?? CalendarDate(daysSinceEpoch: 20_300)!
        let created = Date(timeIntervalSince1970: TimeInterval(day) * 86_400 + 3_600)
        return Announcement(
            id: id,
            petName: status == .missing ? "Pet \(id)" : nil,
            species: species,
            status: status,
            breed: breed,
            sex: sex,
            age: age,
            description: description,
            microchipNumber: chip,
            place: .coordinates(point, address: nil),
            lastSeenDate: date,
            phone: "+48 600 000 000",
            createdAt: created,
            updatedAt: created
        )
    }
}

extension Coordinate {
    /// A point `km` away in a random direction (flat-earth step, fine for a few tens of km).
    func moved(km: Double, using random: inout MatchCorpus.SplitMix) -> Coordinate {
        let bearing = Double.random(in: 0..<(2 * .pi), using: &random)
        let latitude = self.latitude + km * cos(bearing) / 111.2
        let longitude = self.longitude + km * sin(bearing) / (111.2 * cos(self.latitude * .pi / 180))
        return Coordinate(latitude: latitude, longitude: longitude) ?? self
    }
}

/// How often the true match of a corpus's pairs ranks first and in the top 3 (docs/matching.md).
package struct MatchQuality: Sendable {
    /// Lookups made: each pair's missing report looks for its found one and the other way round.
    package var lookups = 0
    /// Lookups whose true match is first, and in the first three.
    package var first = 0
    package var topThree = 0

    package var firstShare: Double { lookups == 0 ? 0 : Double(first) / Double(lookups) }
    package var topThreeShare: Double { lookups == 0 ? 0 : Double(topThree) / Double(lookups) }

    /// Measures `corpus` in one snapshot of its items.
    package static func measure(_ corpus: MatchCorpus) -> MatchQuality {
        let index = AnnouncementIndex(items: corpus.items)
        let profiles = MatchProfiles(index)
        var quality = MatchQuality()
        for (missing, found) in corpus.pairs {
            for (from, to) in [(missing, found), (found, missing)] {
                guard let pet = index.announcement(id: from) else { continue }
                quality.lookups += 1
                let ranked = Matching.matches(for: pet, in: index, profiles: profiles).prefix(3).map { index.items[$0.position].id }
                if ranked.first == to { quality.first += 1 }
                if ranked.contains(to) { quality.topThree += 1 }
            }
        }
        return quality
    }
}
