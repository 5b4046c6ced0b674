import Foundation
import PetDomain
import Testing

/// The rules of possible matches one by one, the lexicon, the ranking, and how well it ranks on the
/// generated corpus (docs/matching.md).
@Suite struct MatchingTests {
    static let warsaw = (52.2297, 21.0122)

    /// A report with the fields matching reads; the rest fixed.
    static func report(
        _ id: String,
        _ status: AnnouncementStatus,
        species: Species = .cat,
        sex: Sex = .unknown,
        breed: String? = nil,
        age: Int? = nil,
        description: String? = nil,
        chip: String? = nil,
        kmNorth: Double? = 0,
        day dayOfMonth: Int = 10
    ) throws -> Announcement {
        let place: Place
        if let kmNorth {
            place = .coordinates(try coordinate(warsaw.0 + kmNorth / 111.2, warsaw.1), address: nil)
        } else {
            place = .city(name: "Warszawa", radiusKm: 5)
        }
        let date = try #require(CalendarDate(year: 2025, month: 3, day: 1)).adding(days: dayOfMonth - 1)
        return Announcement(
            id: id,
            species: species,
            status: status,
            breed: breed,
            sex: sex,
            age: age,
            description: description,
            microchipNumber: chip,
            place: place,
            lastSeenDate: date,
            createdAt: utc(2025, 3, 1),
            updatedAt: utc(2025, 3, 1)
        )
    }

    /// The ids of `pet`'s matches in a snapshot of `items` (with `pet` in it).
    static func matchIDs(_ pet: Announcement, among items: [Announcement]) -> [String] {
        let index = AnnouncementIndex(items: [pet] + items)
        return Matching.matches(for: pet, in: index).map { index.items[$0.position].id }
    }

    // MARK: - Rules

    @Test func only_the_other_status_matches_and_closed_reports_have_none() throws {
        let lost = try Self.report("lost", .missing)
        let others = [try Self.report("found", .found), try Self.report("lost2", .missing), try Self.report("closed", .closed)]
        #expect(Self.matchIDs(lost, among: others) == ["found"])
        #expect(Self.matchIDs(try Self.report("found0", .found), among: others) == ["lost2"])
        #expect(Self.matchIDs(try Self.report("closed0", .closed), among: others).isEmpty)
    }

    @Test func the_species_must_be_the_same() throws {
        let lost = try Self.report("lost", .missing, species: .dog)
        #expect(
            Self.matchIDs(lost, among: [try Self.report("cat", .found, species: .cat), try Self.report("dog", .found, species: .dog)]) == ["dog"]
        )
    }

    @Test(arguments: [
        (Sex.male, Sex.male, true), (.male, .female, false), (.female, .male, false), (.male, .unknown, true),
        (.unknown, .female, true), (.unknown, .unknown, true),
    ])
    func sexes_are_equal_or_one_is_unknown(lost: Sex, found: Sex, matches: Bool) throws {
        let ids = Self.matchIDs(try Self.report("lost", .missing, sex: lost), among: [try Self.report("found", .found, sex: found)])
        #expect(ids == (matches ? ["found"] : []))
    }

    @Test(arguments: [(0.0, true), (24.9, true), (25.0, true), (25.2, false), (40, false)])
    func places_are_at_most_25_km_apart(km: Double, matches: Bool) throws {
        let lost = try Self.report("lost", .missing)
        let found = try Self.report("found", .found, kmNorth: km)
        let origin = try #require(lost.place.coordinate)
        let distance = try #require(found.place.coordinate?.distanceKm(to: origin))
        #expect(abs(distance - km) < 0.05)
        #expect(Self.matchIDs(lost, among: [found]) == (distance <= 25 ? ["found"] : []))
        #expect((distance <= 25) == matches)
    }

    @Test func reports_without_coordinates_never_match() throws {
        let cityOnlyLost = try Self.report("lost", .missing, kmNorth: nil)
        #expect(Self.matchIDs(cityOnlyLost, among: [try Self.report("found", .found)]).isEmpty)
        let lost = try Self.report("lost", .missing)
        #expect(Self.matchIDs(lost, among: [try Self.report("found", .found, kmNorth: nil)]).isEmpty)
    }

    /// Lost on day 10: found from day 8 (2 days before) to day 130 (120 days after), from both sides.
    @Test(arguments: [(7, false), (8, true), (10, true), (130, true), (131, false)])
    func found_from_2_days_before_to_120_days_after_the_loss(foundDay: Int, matches: Bool) throws {
        let lost = try Self.report("lost", .missing, day: 10)
        let found = try Self.report("found", .found, day: foundDay)
        #expect(Self.matchIDs(lost, among: [found]) == (matches ? ["found"] : []))
        #expect(Self.matchIDs(found, among: [lost]) == (matches ? ["lost"] : []))
        if matches {
            let index = AnnouncementIndex(items: [lost, found])
            let match = try #require(Matching.matches(for: found, in: index).first)
            #expect(match.daysApart == foundDay - 10)
            #expect(match.reasons.contains(.daysApart(foundDay - 10)))
        }
    }

    @Test func equal_microchips_are_a_certain_match_ranked_first() throws {
        let lost = try Self.report("lost", .missing, breed: "Persian", description: "black cat", chip: "985 112-000 111")
        let closeAlike = try Self.report("alike", .found, breed: "persian", description: "czarna kotka", kmNorth: 0.1)
        let chipped = try Self.report("chipped", .found, chip: "985112000111", kmNorth: 20, day: 60)
        let index = AnnouncementIndex(items: [lost, closeAlike, chipped])
        let matches = Matching.matches(for: lost, in: index)
        #expect(matches.map { index.items[$0.position].id } == ["chipped", "alike"])
        #expect(matches[0].certain)
        #expect(matches[0].reasons.first == .sameMicrochip)
        #expect(matches[0].score > matches[1].score)
        #expect(!matches[1].reasons.contains(.sameMicrochip))
    }

    @Test func different_microchips_never_match_but_one_missing_chip_may() throws {
        let lost = try Self.report("lost", .missing, chip: "111111111")
        let other = try Self.report("other", .found, chip: "222222222")
        let unchipped = try Self.report("unchipped", .found)
        #expect(Self.matchIDs(lost, among: [other, unchipped]) == ["unchipped"])
    }

    @Test func a_report_is_never_its_own_match_and_a_new_report_matches_without_being_indexed() throws {
        let found = try Self.report("found", .found)
        let index = AnnouncementIndex(items: [found])
        #expect(Matching.matches(for: found, in: index).isEmpty)
        let newLost = try Self.report("new", .missing)
        #expect(Matching.matches(for: newLost, in: index).map(\.position) == [0])
    }

    // MARK: - Lexicon

    @Test(arguments: [
        ("czarny kot", [Marking.black]), ("czarna kotka", [.black]), ("czarne kocię", [.black]), ("z czarnym ogonem", [.black]),
        ("czarną obrożą", [.black]), ("Biały", [.white]), ("biała łapka", [.white]), ("z białą łapką", [.white]),
        ("z białą łatką", [.white, .patched]),
        ("białymi skarpetkami", [.white]), ("rudy kocur", [.ginger]), ("rudego", [.ginger]), ("pręgowany", [.striped]),
        ("PRĘGOWANA", [.striped]), ("łaciaty", [.patched]), ("łaciata krowa", [.patched]), ("czarno-biały", [.black, .white]),
        ("czarnobiała", [.black, .white]), ("szara", [.grey]), ("brązowy", [.brown]), ("podpalany", [.tan]),
        ("Black cat, one white paw", [.black, .white]), ("grey TABBY", [.grey, .striped]), ("brindle", [.striped]), ("Burek", []), ("rudzik", []),
        ("czarnuszka", []), ("bialy", [.white]), ("czarna kotka z białą łapką", [.black, .white]),
    ])
    func the_lexicon_reads_polish_inflections_and_english(text: String, expected: [Marking]) {
        #expect(MatchLexicon.markings(in: text).markings == expected)
    }

    @Test func a_polish_and_an_english_description_share_their_colours() {
        let polish = MatchLexicon.markings(in: "czarna kotka z białą łapką")
        let english = MatchLexicon.markings(in: "black cat, one white paw")
        #expect(polish.intersection(english).markings == [.black, .white])
    }

    @Test(
        arguments: [
            ("Mieszaniec", nil), ("kundel", nil), ("mixed breed", nil), ("Domestic Shorthair", nil), ("nie wiem", nil),
            ("Labrador mix", "labrador"), ("Owczarek Niemiecki", "german shepherd"), ("Jamnik", "dachshund"),
            ("Maine Coon", "maine coon"), ("Chihuahua", "chihuahua"),
        ] as [(String, String?)]
    )
    func breeds_without_a_breed_are_unknown(breed: String, key: String?) {
        #expect(MatchLexicon.breedKey(breed) == key)
    }

    @Test func breeds_compare_without_case_and_diacritics() throws {
        #expect(MatchLexicon.breedKey("Bichon Frisé") == MatchLexicon.breedKey("bichon frise"))
        #expect(MatchLexicon.sameBreed(try #require(MatchLexicon.breedKey("Labrador")), try #require(MatchLexicon.breedKey("labrador retriever"))))
        #expect(!MatchLexicon.sameBreed("beagle", "pug"))
    }

    // MARK: - Ranking

    /// A hand-made set: the order follows distance, time, breed, age and shared markings.
    @Test func closer_alike_reports_rank_higher() throws {
        let lost = try Self.report("lost", .missing, species: .dog, sex: .male, breed: "Beagle", age: 4, description: "brown and white beagle")
        let best = try Self.report(
            "best",
            .found,
            species: .dog,
            breed: "beagle",
            age: 5,
            description: "brązowo-biały piesek",
            kmNorth: 0.5,
            day: 11
        )
        let farther = try Self.report("farther", .found, species: .dog, breed: "beagle", age: 5, description: "brown white", kmNorth: 8, day: 11)
        let later = try Self.report("later", .found, species: .dog, breed: "beagle", age: 5, description: "brown white", kmNorth: 8, day: 70)
        let otherBreed = try Self.report("otherBreed", .found, species: .dog, breed: "Pug", age: 5, description: "brown white", kmNorth: 8, day: 70)
        let nothingShared = try Self.report("nothing", .found, species: .dog, breed: "Pug", age: 12, description: "black", kmNorth: 8, day: 70)
        let ids = Self.matchIDs(lost, among: [nothingShared, otherBreed, later, farther, best])
        #expect(ids == ["best", "farther", "later", "otherBreed", "nothing"])
    }

    @Test func reasons_carry_codes_and_values_in_page_order() throws {
        let lost = try Self.report("lost", .missing, breed: "Maine Coon", age: 3, description: "czarna kotka z białą łapką", chip: "123")
        let found = try Self.report(
            "found",
            .found,
            breed: "maine coon",
            age: 4,
            description: "black cat, one white paw",
            chip: "123",
            kmNorth: 2.1,
            day: 13
        )
        let index = AnnouncementIndex(items: [lost, found])
        let match = try #require(Matching.matches(for: lost, in: index).first)
        #expect(
            match.reasons == [
                .sameMicrochip, .distanceKm(2.1), .daysApart(3), .sharedMarkings([.black, .white]), .sameBreed("maine coon"), .agesAgree,
            ]
        )
        #expect(match.reasons.map(\.code) == ["SAME_MICROCHIP", "DISTANCE_KM", "DAYS_APART", "SHARED_MARKINGS", "SAME_BREED", "AGES_AGREE"])
    }

    // MARK: - How well it ranks (docs/matching.md)

    /// Each pair's found report looks for its missing one and the other way round: the true match is
    /// first in at least 70 % of the lookups and in the top 3 in at least 85 % (the figures measured
    /// are in docs/matching.md; the floors are a little below them).
    @Test func the_true_match_ranks_first_on_the_generated_corpus() {
        let corpus = MatchCorpus(pairCount: 150, decoyCount: 1_500, seed: 7)
        let quality = MatchQuality.measure(corpus)
        #expect(quality.lookups == 300)
        #expect(quality.firstShare >= 0.70, "first: \(quality.firstShare)")
        #expect(quality.topThreeShare >= 0.85, "top 3: \(quality.topThreeShare)")
    }

    @Test func the_corpus_is_the_same_for_the_same_seed() {
        let one = MatchCorpus(pairCount: 5, decoyCount: 20, seed: 3)
        let two = MatchCorpus(pairCount: 5, decoyCount: 20, seed: 3)
        #expect(one.items == two.items)
        #expect(one.items.count == 30)
    }
}

extension CalendarDate {
    /// The date `days` later.
    func adding(days: Int) -> CalendarDate {
        var date = self
        for _ in 0..<days {
            date =
                CalendarDate(year: date.year, month: date.month, day: date.day + 1)
                ?? CalendarDate(year: date.year, month: date.month + 1, day: 1)
                ?? CalendarDate(year: date.year + 1, month: 1, day: 1)!
        }
        return date
    }
}
