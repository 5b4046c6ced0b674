import Mustache

// Field lookup without Mirror: swift-mustache reflects every child of a struct on each `{{name}}`
// lookup (and again on each level of the context stack for names found higher up), which made a
// 20-card list cost several milliseconds of CPU. `MustacheParent` answers by name directly.
// Keep these switches in step with PageModels.swift (PageModelLookupTests checks every field).

/// A model a whole template renders (a page, or the card partial): `PageRenderer.render` takes
/// these, not `Any`, so a wrong value is a compile error, not an empty page.
protocol ViewModel: MustacheParent, Sendable {}

extension LandingPageModel: ViewModel {}
extension ListPageModel: ViewModel {}
extension DetailsPageModel: ViewModel {}
extension ErrorPageModel: ViewModel {}
extension CardModel: ViewModel {}

extension LayoutModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "pageTitle": return self.pageTitle
        case "metaDescription": return self.metaDescription
        case "canonicalURL": return self.canonicalURL
        case "ogTitle": return self.ogTitle
        case "ogDescription": return self.ogDescription
        case "ogImage": return self.ogImage
        case "ogType": return self.ogType
        case "twitterCard": return self.twitterCard
        case "homeURL": return self.homeURL
        case "listURL": return self.listURL
        case "isHome": return self.isHome
        case "isList": return self.isList
        case "locationState": return self.locationState
        default: return nil
        }
    }
}

extension BannerModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "title": return self.title
        case "message": return self.message
        case "tryAgainURL": return self.tryAgainURL
        case "dismissURL": return self.dismissURL
        default: return nil
        }
    }
}

extension CardModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "id": return self.id
        case "detailURL": return self.detailURL
        case "name": return self.name
        case "speciesLabel": return self.speciesLabel
        case "statusLabel": return self.statusLabel
        case "statusClass": return self.statusClass
        case "photoURL": return self.photoURL
        case "photoSrcset": return self.photoSrcset
        case "photoAlt": return self.photoAlt
        case "breed": return self.breed
        case "lastSeenText": return self.lastSeenText
        case "placeText": return self.placeText
        case "distanceText": return self.distanceText
        case "rewardText": return self.rewardText
        case "excerpt": return self.excerpt
        default: return nil
        }
    }
}

extension OptionModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "value": return self.value
        case "label": return self.label
        case "selected": return self.selected
        default: return nil
        }
    }
}

extension HiddenField: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "name": return self.name
        case "value": return self.value
        default: return nil
        }
    }
}

extension PaginationModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "previousURL": return self.previousURL
        case "nextURL": return self.nextURL
        case "summary": return self.summary
        default: return nil
        }
    }
}

extension LandingPageModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "layout": return self.layout
        case "banner": return self.banner
        case "staleNotice": return self.staleNotice
        case "cards": return self.cards
        case "hasCards": return self.hasCards
        case "emptyMessage": return self.emptyMessage
        case "viewAllURL": return self.viewAllURL
        case "nearbyText": return self.nearbyText
        default: return nil
        }
    }
}

extension ListPageModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "layout": return self.layout
        case "banner": return self.banner
        case "staleNotice": return self.staleNotice
        case "heading": return self.heading
        case "resultSummary": return self.resultSummary
        case "cards": return self.cards
        case "hasCards": return self.hasCards
        case "emptyMessage": return self.emptyMessage
        case "clearFiltersURL": return self.clearFiltersURL
        case "statusOptions": return self.statusOptions
        case "speciesOptions": return self.speciesOptions
        case "sortOptions": return self.sortOptions
        case "hiddenFields": return self.hiddenFields
        case "pagination": return self.pagination
        default: return nil
        }
    }
}

extension DetailRow: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "label": return self.label
        case "value": return self.value
        case "href": return self.href
        default: return nil
        }
    }
}

extension DetailsPageModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "layout": return self.layout
        case "staleNotice": return self.staleNotice
        case "id": return self.id
        case "name": return self.name
        case "statusLabel": return self.statusLabel
        case "statusClass": return self.statusClass
        case "rewardText": return self.rewardText
        case "photoURL": return self.photoURL
        case "photoSrcset": return self.photoSrcset
        case "photoFullURL": return self.photoFullURL
        case "photoAlt": return self.photoAlt
        case "subtitle": return self.subtitle
        case "rows": return self.rows
        case "description": return self.description
        case "mapURL": return self.mapURL
        case "phoneHref": return self.phoneHref
        case "phoneText": return self.phoneText
        case "emailHref": return self.emailHref
        case "emailText": return self.emailText
        case "shareURL": return self.shareURL
        case "shareTitle": return self.shareTitle
        case "backURL": return self.backURL
        default: return nil
        }
    }
}

extension ErrorPageModel: MustacheParent {
    /// The field called `name`, for the templates.
    func child(named name: String) -> Any? {
        switch name {
        case "layout": return self.layout
        case "status": return self.status
        case "heading": return self.heading
        case "message": return self.message
        case "retryURL": return self.retryURL
        case "listURL": return self.listURL
        case "homeURL": return self.homeURL
        default: return nil
        }
    }
}
