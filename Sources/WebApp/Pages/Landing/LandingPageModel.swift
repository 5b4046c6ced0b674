import Mustache

/// `/` landing page (`Templates/landing.mustache`, rendered by `PageHandlers.landing`).
@TemplateFields
package struct LandingPageModel: Sendable {
    package let layout: LayoutModel
    package let banner: BannerModel?
    package let staleNotice: String?  // "Showing saved data from 3 minutes ago: the service is not answering."
    package let cards: [any CardView]
    package let hasCards: Bool
    package let emptyMessage: String  // shown when `hasCards` is false
    package let viewAllURL: String  // /pets keeping the location
    package let nearbyText: String?  // "Within 10 km of you" when located
}

extension LandingPageModel: ViewModel {}
