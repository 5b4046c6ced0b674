import HTTPTypes
import MicroHTTP
import PetDomain

/// The list page's filters, sort and page from the query string (product-spec §4 `/pets`).
struct ListFilters: Equatable, Sendable {
    var status: AnnouncementStatus?
    var species: Species?
    var sort: SortOrder
    var page: Int

    /// Parses `status`, `species`, `sort` and `page`; throws naming the first bad one.
    static func parse(_ query: QueryItems, located: Bool) throws(QueryProblem) -> ListFilters {
        var filters = ListFilters(status: nil, species: nil, sort: .newest, page: 1)
        if let text = try VisitorLocation.single("status", in: query) {
            guard let status = AnnouncementStatus(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "status", message: "status must be missing, found or closed.")
            }
            filters.status = status
        }
        if let text = try VisitorLocation.single("species", in: query) {
            guard let species = Species(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "species", message: "species must be dog, cat, bird, rabbit or other.")
            }
            filters.species = species
        }
        if let text = try VisitorLocation.single("sort", in: query) {
            guard let sort = SortOrder(rawValue: text.lowercased()) else {
                throw QueryProblem(parameter: "sort", message: "sort must be newest, oldest or nearest.")
            }
            guard sort != .nearest || located else {
                throw QueryProblem(parameter: "sort", message: "sort=nearest needs your location (lat and lng).")
            }
            filters.sort = sort
        }
        if let text = try VisitorLocation.single("page", in: query) {
            guard let page = Int(text), page >= 1, page <= 100_000 else {
                throw QueryProblem(parameter: "page", message: "page must be a whole number from 1.")
            }
            filters.page = page
        }
        return filters
    }

    /// The visitor's location (`defaultRangeKm` when located without `range`) and the filters of a
    /// list-like query (`/pets`, `/map`, the GeoJSON); throws the first bad parameter.
    static func parseWithLocation(_ query: QueryItems, defaultRangeKm: Int) throws(QueryProblem) -> (VisitorLocation, ListFilters) {
        let location = try VisitorLocation.parse(query, defaultRangeKm: defaultRangeKm)
        return (location, try ListFilters.parse(query, located: location.origin != nil))
    }

    /// True when status or species narrows the list.
    var isFiltered: Bool { status != nil || species != nil }

    /// The list URL for another page with the same filters and location.
    func url(page: Int, location: VisitorLocation) -> String {
        QueryString.url(Route.list.path, linkItems(location) + [("page", page == 1 ? nil : String(page))])
    }

    /// `route`'s URL (the map, its GeoJSON, the list's first page) with the same filters and location.
    func url(_ route: Route, location: VisitorLocation) -> String {
        QueryString.url(route.path, linkItems(location))
    }

    private func linkItems(_ location: VisitorLocation) -> [(String, String?)] {
        [
            ("status", status?.rawValue),
            ("species", species?.rawValue),
            ("sort", sort == .newest ? nil : sort.rawValue),
        ] + location.linkItems
    }

    /// The index query of these filters for `location` (every page: `offset`/`limit` pick the slice).
    func query(location: VisitorLocation) -> AnnouncementQuery {
        AnnouncementQuery(status: status, species: species, sort: sort, origin: location.origin, rangeKm: location.rangeKm.map(Double.init))
    }

    /// "Missing cats", "Found pets", "Lost and found pets".
    var title: String {
        let noun = species.map { $0 == .other ? "other pets" : $0.displayName.lowercased() + "s" } ?? "pets"
        switch status {
        case .missing?: return "Missing \(noun)"
        case .found?: return "Found \(noun)"
        case .closed?: return "Closed reports: \(noun)"
        case nil: return species == nil ? "Lost and found pets" : "Lost and found \(noun)"
        }
    }

    /// "24 pets", "1 pet within 15 km of you".
    func summary(count: Int, location: VisitorLocation) -> String {
        var text = count == 1 ? "1 pet" : "\(count) pets"
        if location.origin != nil, let range = location.rangeKm { text += " within \(range) km of you" }
        return text
    }

    /// The status `<select>` options, "Any status" first.
    var statusOptions: [OptionModel] {
        [OptionModel(value: "", label: "Any status", selected: status == nil)]
            + [(AnnouncementStatus.missing, "Missing"), (.found, "Found"), (.closed, "Closed")].map {
                OptionModel(value: $0.0.rawValue, label: $0.1, selected: status == $0.0)
            }
    }

    /// The species `<select>` options, "Any species" first.
    var speciesOptions: [OptionModel] {
        [OptionModel(value: "", label: "Any species", selected: species == nil)]
            + Species.allCases.map { OptionModel(value: $0.rawValue, label: $0.displayName, selected: species == $0) }
    }

    /// The sort options; "Nearest first" only when located.
    func sortOptions(located: Bool) -> [OptionModel] {
        var options = [
            OptionModel(value: "newest", label: "Newest first", selected: sort == .newest),
            OptionModel(value: "oldest", label: "Oldest first", selected: sort == .oldest),
        ]
        if located { options.append(OptionModel(value: "nearest", label: "Nearest first", selected: sort == .nearest)) }
        return options
    }
}
