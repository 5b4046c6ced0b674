import Mustache

/// `/` landing page (`Templates/landing.mustache`, rendered by `PageHandlers.landing`).
@TemplateFields
struct LandingPageModel: Sendable {
    let layout: LayoutModel
    let banner: BannerModel?
    let staleNotice: String?  // "Showing saved data from 3 minutes ago: the service is not answering."
    let cards: [any CardView]
    let hasCards: Bool
    let emptyMessage: String  // shown when `hasCards` is false
    let viewAllURL: String  // /pets keeping the location
    let nearbyText: String?  // "Within 10 km of you" when located
}

extension LandingPageModel: ViewModel {}
