import Mustache

/// `/pets` list page (`Templates/list.mustache`, rendered by `PageHandlers.list`).
@TemplateFields
package struct ListPageModel: Sendable {
    package let layout: LayoutModel
    package let banner: BannerModel?
    package let staleNotice: String?
    package let heading: String  // "Lost and found pets"
    package let resultSummary: String  // "24 pets" / "3 missing cats within 15 km"
    package let mapURL: String  // "Map": /map with the same filters and location
    package let cards: [any CardView]
    package let hasCards: Bool
    package let emptyMessage: String
    package let clearFiltersURL: String?  // when filters are active
    package let statusOptions: [OptionModel]  // first option value "" = any
    package let speciesOptions: [OptionModel]
    package let sortOptions: [OptionModel]  // nearest only when located
    package let hiddenFields: [HiddenField]  // lat, lng, range…
    package let pagination: PaginationModel?  // nil when one page
}

/// Previous/next links of the list.
@TemplateFields
package struct PaginationModel: Sendable {
    package let previousURL: String?
    package let nextURL: String?
    package let summary: String  // "Page 2 of 3"
}

extension ListPageModel: ViewModel {}
