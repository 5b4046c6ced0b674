import Mustache

/// `/pets` list page (`Templates/list.mustache`, rendered by `PageHandlers.list`).
@TemplateFields
struct ListPageModel: Sendable {
    let layout: LayoutModel
    let banner: BannerModel?
    let staleNotice: String?
    let heading: String  // "Lost and found pets"
    let resultSummary: String  // "24 pets" / "3 missing cats within 15 km"
    let mapURL: String  // "Map": /map with the same filters and location
    let cards: [any CardView]
    let hasCards: Bool
    let emptyMessage: String
    let clearFiltersURL: String?  // when filters are active
    let statusOptions: [OptionModel]  // first option value "" = any
    let speciesOptions: [OptionModel]
    let sortOptions: [OptionModel]  // nearest only when located
    let hiddenFields: [HiddenField]  // lat, lng, range…
    let pagination: PaginationModel?  // nil when one page
}

/// Previous/next links of the list.
@TemplateFields
struct PaginationModel: Sendable {
    let previousURL: String?
    let nextURL: String?
    let summary: String  // "Page 2 of 3"
}

extension ListPageModel: ViewModel {}
