import HTTPTypes
import MicroHTTP
import PetDomain

/// The list page's filters, sort and page from the query string (docs/upstream.md §4 `/pets`).
struct ListFilters: Equatable, Sendable {
    var status: AnnouncementStatus?
    var species: Species?
    var sort: SortOrder
    var page: Int
    /// `status=reunited`: the pets that are home (`Snapshot.reunited`, docs/sightings.md "Reunited") instead of
    /// the listed ones; every other page leaves them out.
    var reunited = false

    /// Parses `status`, `species`, `sort` and `page`; throws naming the first bad one.
    static func parse(_ query: QueryItems, located: Bool) throws(QueryProblem) -> ListFilters {
        var filters = ListFilters(status: nil, species: nil, sort: .newest, page: 1)
        if let text = try VisitorLocation.single("status", in: query), text.lowercased() == "reunited" {
            filters.reunited = true
        } else if let text = try VisitorLocation.single("status", in: query) {
            guard let status = AnnouncementStatus(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "status", reason: .queryStatus)
            }
            filters.status = status
        }
        if let text = try VisitorLocation.single("species", in: query) {
            guard let species = Species(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "species", reason: .querySpecies)
            }
            filters.species = species
        }
        if let text = try VisitorLocation.single("sort", in: query) {
            guard let sort = SortOrder(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "sort", reason: .querySort)
            }
            guard sort != .nearest || located else {
                throw QueryProblem(parameter: "sort", reason: .querySortNearest)
            }
            filters.sort = sort
        }
        if let text = try VisitorLocation.single("page", in: query) {
            guard let page = Int(text), page >= 1, page <= 100_000 else {
                throw QueryProblem(parameter: "page", reason: .queryPage)
            }
            filters.page = page
        }
        return filters
    }

    /// The visitor's location with the page language, and the filters of a page's list-like query
    /// (`/pets`, `/map`); throws the first bad parameter with the language to say it in.
    static func parseWithLocation(_ request: Request, defaultRangeKm: Int) throws(LocatedProblem) -> (VisitorLocation, ListFilters) {
        let location = try VisitorLocation.parse(request, defaultRangeKm: defaultRangeKm)
        do {
            return (location, try ListFilters.parse(request.query, located: location.origin != nil))
        } catch {
            throw LocatedProblem(problem: error, language: location.language)
        }
    }

    /// The visitor's location (`defaultRangeKm` when located without `range`) and the filters of a
    /// list-like query (`/pets`, `/map`, the GeoJSON); throws the first bad parameter.
    static func parseWithLocation(_ query: QueryItems, defaultRangeKm: Int) throws(QueryProblem) -> (VisitorLocation, ListFilters) {
        let location = try VisitorLocation.parse(query, defaultRangeKm: defaultRangeKm)
        return (location, try ListFilters.parse(query, located: location.origin != nil))
    }

    /// True when status or species narrows the list.
    var isFiltered: Bool { status != nil || species != nil || reunited }

    /// The list URL for another page with the same filters and location.
    func url(page: Int, location: VisitorLocation) -> String {
        var builder = builder(Route.list.path, location: location)
        if page != 1 { builder.add("page", String(page)) }
        return builder.url
    }

    /// `route`'s URL (the map, its GeoJSON, the list's first page) with the same filters and location.
    func url(_ route: Route, location: VisitorLocation) -> String {
        url(route.path, location: location)
    }

    /// `path` followed by this search's query (`?…`, or nothing when it has no parameter).
    func url(_ path: String, location: VisitorLocation) -> String {
        builder(path, location: location).url
    }

    /// `path` with the filters, then the location's link items.
    private func builder(_ path: String, location: VisitorLocation) -> QueryString.Builder {
        var builder = QueryString.Builder(path)
        builder.add("status", reunited ? "reunited" : status?.rawValue)
        builder.add("species", species?.rawValue)
        if sort != .newest { builder.add("sort", sort.rawValue) }
        builder.add(location)
        return builder
    }

    /// The index query of these filters for `location` (every page: `offset`/`limit` pick the slice).
    func query(location: VisitorLocation) -> AnnouncementQuery {
        AnnouncementQuery(status: status, species: species, sort: sort, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
    }

    /// "Missing cats", "Found pets", "Lost and found pets" / "Zaginione koty", ….
    func title(_ texts: Texts) -> String {
        let noun: String
        switch species {
        case .dog?: noun = texts(.listNounDog)
        case .cat?: noun = texts(.listNounCat)
        case .bird?: noun = texts(.listNounBird)
        case .rabbit?: noun = texts(.listNounRabbit)
        case .other?: noun = texts(.listNounOther)
        case nil: noun = texts(.listNounAll)
        }
        if reunited { return texts(.listTitleReunited, ("noun", noun)) }
        switch status {
        case .missing?: return texts(.listTitleMissing, ("noun", noun))
        case .found?: return texts(.listTitleFound, ("noun", noun))
        case .closed?: return texts(.listTitleClosed, ("noun", noun))
        case nil: return texts(.listTitleAll, ("noun", noun))
        }
    }

    /// "24 pets", "1 pet within 15 km of you" / "24 zwierzęta", "5 zwierząt w promieniu 15 km od Ciebie".
    func summary(count: Int, location: VisitorLocation, texts: Texts) -> String {
        let results = texts.counted(.listCount, count)
        guard location.origin != nil, let range = location.rangeKm else { return results }
        return texts.counted(.listWithin, range, ("results", results))
    }

    /// The status `<select>` options, "Any status" first.
    func statusOptions(_ texts: Texts) -> [OptionModel] {
        [OptionModel(value: "", label: texts(.optionAnyStatus), selected: status == nil && !reunited)]
            + [(AnnouncementStatus.missing, TextKey.optionMissing), (.found, .optionFound), (.closed, .optionClosed)].map {
                OptionModel(value: $0.0.rawValue, label: texts($0.1), selected: status == $0.0)
            }
            + [OptionModel(value: "reunited", label: texts(.optionReunited), selected: reunited)]
    }

    /// The species `<select>` options, "Any species" first.
    func speciesOptions(_ texts: Texts) -> [OptionModel] {
        [OptionModel(value: "", label: texts(.optionAnySpecies), selected: species == nil)]
            + Species.allCases.map { OptionModel(value: $0.rawValue, label: texts.species($0), selected: species == $0) }
    }

    /// The sort options; "Nearest first" only when located.
    func sortOptions(located: Bool, texts: Texts) -> [OptionModel] {
        var options = [
            OptionModel(value: "newest", label: texts(.optionNewest), selected: sort == .newest),
            OptionModel(value: "oldest", label: texts(.optionOldest), selected: sort == .oldest),
        ]
        if located { options.append(OptionModel(value: "nearest", label: texts(.optionNearest), selected: sort == .nearest)) }
        return options
    }
}
