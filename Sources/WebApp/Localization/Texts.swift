import CompiledTemplates
import FastBytes
import Foundation
import PetDomain

/// One language's texts and formats (docs/languages.md), made once at startup from its checked catalog:
/// every visible word of a page comes from here or from the catalog through the templates.
///
/// With the English catalog these give exactly `Format`'s English text (CatalogTests compare them).
/// A class: a page hands its texts to cards, lists and closures, and each copy of a struct of a
/// dozen tables retained every table (a tenth of a located page's retains, docs/performance.md).
final class Texts: Sendable {
    let language: Language
    let rules: PluralRules
    private let catalog: MessageCatalog
    /// The date style, decimal mark and hemisphere letters, read once.
    let dateStyle: Format.DateStyle
    let decimalSeparator: String
    private let hemispheres: (north: String, south: String, east: String, west: String)
    /// "{km} km away" split around `{km}` (the distance is written for every card of a located page).
    private let distanceAround: (before: String, after: String)
    /// The same parts, the decimal mark and the missing value HTML-escaped, for `writeDistance`.
    private let escapedDistance: (before: [UInt8], separator: [UInt8], after: [UInt8], missing: [UInt8])
    /// Every plain text the server names, split at its slots once (see `Message`).
    private let messages: [TextKey: Message]
    /// Every counted text the server names, by plural category, split at its slots once.
    private let countedMessages: [TextKey: [PluralCategory: Message]]

    /// The texts of `language` from `catalog`; throws the catalog's problems (a missing key, a
    /// counted text without one of the language's categories, a date pattern it cannot write).
    init(language: Language, catalog: MessageCatalog, file: String) throws(MessageCatalog.LoadError) {
        self.language = language
        rules = language == .pl ? .polish : .english
        self.catalog = catalog
        let problems = catalog.problems(rules: rules, required: TextKey.allCases.map { ($0.rawValue, $0.isCounted) })
        guard problems.isEmpty else { throw MessageCatalog.LoadError(file: file, line: 0, message: problems.joined(separator: "; ")) }
        let texts = catalog.texts
        let months = (texts[TextKey.formatMonths.rawValue] ?? "").split(separator: " ").map(String.init)
        guard months.count == 12 else { throw MessageCatalog.LoadError(file: file, line: 0, message: "format.months needs 12 names") }
        switch texts[TextKey.formatDate.rawValue] {
        case "MMM dd, yyyy": dateStyle = Format.DateStyle(months: months, monthFirst: true)
        case "d MMM y": dateStyle = Format.DateStyle(months: months, monthFirst: false)
        default: throw MessageCatalog.LoadError(file: file, line: 0, message: "format.date must be 'MMM dd, yyyy' or 'd MMM y'")
        }
        decimalSeparator = texts[TextKey.formatDecimal.rawValue] ?? "."
        hemispheres = (
            texts[TextKey.formatNorth.rawValue] ?? "N", texts[TextKey.formatSouth.rawValue] ?? "S",
            texts[TextKey.formatEast.rawValue] ?? "E", texts[TextKey.formatWest.rawValue] ?? "W"
        )
        let distance = texts[TextKey.formatDistance.rawValue] ?? "{km}"
        guard let slot = distance.range(of: "{km}") else {
            throw MessageCatalog.LoadError(file: file, line: 0, message: "format.distance needs {km}")
        }
        distanceAround = (String(distance[..<slot.lowerBound]), String(distance[slot.upperBound...]))
        func escaped(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            HTMLText.escape(text, into: &bytes)
            return bytes
        }
        escapedDistance = (
            escaped(distanceAround.before), escaped(decimalSeparator), escaped(distanceAround.after), escaped(Format.missingValue)
        )
        var messages: [TextKey: Message] = [:]
        var countedMessages: [TextKey: [PluralCategory: Message]] = [:]
        for key in TextKey.allCases {
            if key.isCounted {
                countedMessages[key] = (catalog.counted[key.rawValue] ?? [:]).mapValues(Message.init)
            } else {
                messages[key] = Message(texts[key.rawValue] ?? key.rawValue)
            }
        }
        self.messages = messages
        self.countedMessages = countedMessages
    }

    /// The text of `key` with each `{name}` of `values` filled in.
    func callAsFunction(_ key: TextKey, _ values: (String, String)...) -> String {
        messages[key]?.filled(values) ?? key.rawValue
    }

    /// The counted text of `key` in the form `count` takes, `{count}` and `values` filled in.
    func counted(_ key: TextKey, _ count: Int, _ values: (String, String)...) -> String {
        let forms = countedMessages[key]
        guard let message = forms?[rules.category(count)] ?? forms?[.other] else { return key.rawValue }
        return message.filled(count: String(count), values)
    }

    /// The text of `key` with `values` filled in; its counted form for `count` when given (an error's
    /// message, `HTTPError`).
    func text(_ key: TextKey, count: Int?, values: [(String, String)]) -> String {
        guard let count else { return messages[key]?.filled(values) ?? key.rawValue }
        let forms = countedMessages[key]
        guard let message = forms?[rules.category(count)] ?? forms?[.other] else { return key.rawValue }
        return message.filled(count: String(count), values)
    }

    /// Every key of this language's catalog, plain and counted.
    var keySet: Set<String> { catalog.keys }

    /// A plain catalog text by its key as written in the file (templates' `{{t:key}}`); nil when absent.
    func template(_ key: String) -> String? {
        catalog.texts[key]
    }

    // MARK: - Formats (docs/upstream.md §3)

    /// "Nov 05, 2025" / "5 lis 2025".
    func date(_ date: CalendarDate) -> String { Format.date(date, style: dateStyle) }

    /// "2.3 km away" / "2,3 km stąd"; `—` for a negative or non-finite value.
    func distance(km: Double) -> String {
        guard let number = Format.oneDecimalKilometres(km, separator: decimalSeparator) else { return Format.missingValue }
        return distanceAround.before + number + distanceAround.after
    }

    /// `distance(km:)` HTML-escaped, appended to `output` without making a string on the way: every
    /// card of a located page and every entry of a located feed has one (docs/performance.md
    /// "Located pages"). The same bytes as escaping `distance(km:)` (TextsTests compare them).
    func writeDistance(km: Double, into output: inout [UInt8]) {
        withDistanceWriter { $0.write(km: km, into: &output) }
    }

    /// Calls `body` with a writer that does what `writeDistance(km:into:)` does, with this
    /// language's pieces pinned once: a page writes a distance per card, and reading the pieces per
    /// card retained arrays that every server thread shares (contended reference counts).
    func withDistanceWriter<T>(_ body: (DistanceWriter) -> T) -> T {
        escapedDistance.before.withView { before in
            escapedDistance.separator.withView { separator in
                escapedDistance.after.withView { after in
                    escapedDistance.missing.withView { missing in
                        body(DistanceWriter(before: before, separator: separator, after: after, missing: missing))
                    }
                }
            }
        }
    }

    /// `withDistanceWriter` of `texts`; nil inside when there are none.
    static func withDistanceWriter<T>(_ texts: Texts?, _ body: (DistanceWriter?) -> T) -> T {
        guard let texts else { return body(nil) }
        return texts.withDistanceWriter(body)
    }

    /// A distance's escaped text, written with the pieces `withDistanceWriter` pinned (valid only
    /// inside that call).
    struct DistanceWriter {
        let before: ByteView
        let separator: ByteView
        let after: ByteView
        let missing: ByteView

        @inline(__always)
        func write<Sink: ByteSink>(km: Double, into output: inout Sink) {
            let tenths = (km * 10).rounded(.toNearestOrAwayFromZero)
            guard km.isFinite, km >= 0 else {
                output.append(bytes: missing)
                return
            }
            guard tenths < 1e15 else {
                // Beyond Int's digits: Format's own digits (ASCII, nothing to escape) around this
                // language's separator, as `distance(km:)` joins them (CatalogTests compare the two).
                output.append(bytes: before)
                for byte in (Format.oneDecimalKilometres(km, separator: ".") ?? "").utf8 {
                    if byte == UInt8(ascii: ".") { output.append(bytes: separator) } else { output.append(byte: byte) }
                }
                output.append(bytes: after)
                return
            }
            let units = Int(tenths)
            output.append(bytes: before)
            Texts.writeDigits(units / 10, into: &output)
            output.append(bytes: separator)
            output.append(byte: UInt8(ascii: "0") + UInt8(units % 10))
            output.append(bytes: after)
        }
    }

    /// The decimal digits of `value` (≥ 0).
    fileprivate static func writeDigits<Sink: ByteSink>(_ value: Int, into output: inout Sink) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            output.append(byte: UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// "52.2297° N, 21.0122° E" / "52,2297° N, 21,0122° E".
    func coordinate(_ coordinate: Coordinate) -> String {
        Format.coordinate(coordinate, separator: decimalSeparator, hemispheres: hemispheres)
    }

    /// "1 year", "5 years", "under 1 year" / "1 rok", "2 lata", "5 lat"; `—` for nil or negative.
    func age(_ years: Int?) -> String {
        guard let years, years >= 0 else { return Format.missingValue }
        return years == 0 ? self(.ageUnder) : counted(.age, years)
    }

    /// "Reported today", "Reported 3 days ago", "Reported on Nov 05, 2025" / "Zgłoszono 5 dni temu".
    func reportAge(_ age: ReportAge) -> String {
        switch age {
        case .today: self(.reportAgeToday)
        case .yesterday: self(.reportAgeYesterday)
        case .daysAgo(let days): counted(.reportAgeDays, days)
        case .on(let day): self(.reportAgeOn, ("date", date(day)))
        }
    }

    /// "Krzyki, Wrocław" within 2 km of the place, else "about 4 km from Burzenin" / "ok. 4 km od
    /// miejscowości Burzenin" (docs/place-names.md); nil without a place.
    func placeName(_ place: NearestPlace?) -> String? {
        guard let place else { return nil }
        return place.isAtPlace ? place.label : self(.placeNameNear, ("km", String(place.roundedKm)), ("place", place.label))
    }

    /// The poster's status line (docs/poster.md): "LOST" / "FOUND" in English; in Polish the verb
    /// agrees with the pet's sex ("ZAGINĄŁ", "ZAGINĘŁA", and the neuter "ZAGINĘŁO ZWIERZĘ" when unknown);
    /// "ZNALEZIONO" is impersonal and agrees with nothing.
    func posterHeadline(_ status: AnnouncementStatus, sex: Sex) -> String {
        switch (status, sex) {
        case (.missing, .male): self(.posterMissingMale)
        case (.missing, .female): self(.posterMissingFemale)
        case (.missing, .unknown): self(.posterMissingUnknown)
        case (.found, _): self(.posterFound)
        case (.closed, _): self(.posterClosed)
        }
    }

    /// "♂ Male" / "♂ Samiec".
    func sex(_ sex: Sex) -> String {
        switch sex {
        case .male: self(.sexMale)
        case .female: self(.sexFemale)
        case .unknown: self(.sexUnknown)
        }
    }

    /// "Dog" / "Pies".
    func species(_ species: Species) -> String {
        self([TextKey.speciesDog, .speciesCat, .speciesBird, .speciesRabbit, .speciesOther][Texts.speciesOrder(species)])
    }

    /// The status badge, "MISSING" / "ZAGINIONE".
    func status(_ status: AnnouncementStatus) -> String {
        switch status {
        case .missing: self(.statusMissing)
        case .found: self(.statusFound)
        case .closed: self(.statusClosed)
        }
    }

    /// "Reward 500 PLN" / "Nagroda 500 PLN".
    func reward(_ reward: Reward) -> String { self(.formatReward, ("amount", reward.displayText)) }

    /// The reward badge of a pet: its amount, or its free text as written ("Reward A big hug"); nil without one.
    func reward(of pet: Announcement) -> String? {
        if let reward = pet.reward { return self.reward(reward) }
        return pet.rewardNote.map { self(.formatReward, ("amount", $0)) }
    }

    /// The address, else the coordinates; a city with its radius ("Warszawa ±5 km") or alone.
    func place(_ place: Place) -> String {
        switch place {
        case .coordinates(let point, let address): address ?? coordinate(point)
        case .city(let name, let radiusKm?): name + " " + Format.radius(km: radiusKm)
        case .city(let name, nil): name
        }
    }

    /// "missing dog" / "zaginiony pies", for titles and share texts.
    func phrase(_ status: AnnouncementStatus, _ species: Species) -> String {
        let keys: [TextKey]
        switch status {
        case .missing: keys = [.phraseMissingDog, .phraseMissingCat, .phraseMissingBird, .phraseMissingRabbit, .phraseMissingOther]
        case .found: keys = [.phraseFoundDog, .phraseFoundCat, .phraseFoundBird, .phraseFoundRabbit, .phraseFoundOther]
        case .closed: keys = [.phraseClosedDog, .phraseClosedCat, .phraseClosedBird, .phraseClosedRabbit, .phraseClosedOther]
        }
        return self(keys[Texts.speciesOrder(species)])
    }

    /// "Photo of Max, a dog" / "Zdjęcie: Max, pies".
    func photoAlt(name: String, species: Species) -> String {
        let keys: [TextKey] = [.photoAltDog, .photoAltCat, .photoAltBird, .photoAltRabbit, .photoAltOther]
        return self(keys[Texts.speciesOrder(species)], ("name", name))
    }

    /// The species' position in the catalog's per-species lists.
    private static func speciesOrder(_ species: Species) -> Int {
        switch species {
        case .dog: 0
        case .cat: 1
        case .bird: 2
        case .rabbit: 3
        case .other: 4
        }
    }

    /// "Unnamed pet" / "Zwierzę bez imienia" for a pet without a name.
    func name(_ pet: Announcement) -> String { pet.petName ?? self(.petUnnamed) }
}
