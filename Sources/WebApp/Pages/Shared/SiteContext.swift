import PetDomain

/// What every page handler shares, in three parts held once for the site (and in one final class,
/// so a handler passes one reference around per request): the renderer with its texts, the layout
/// builder with the site's links, and the page caches; and the site's clock.
final class SiteContext: Sendable {
    /// The templates and texts of every language, and pages rendered with them.
    let renderer: PageRenderer
    /// The layout of every page, and the site's links (`LayoutBuilder.withLanguage`).
    let layout: LayoutBuilder
    /// The page caches, and the reuse of what they keep (`PageCaches.cachedPage`).
    let caches: PageCaches
    /// The day report ages are worded for, and the date pages are made on (`DayClock`).
    let days: DayClock
    /// What every feed's head shares with the others of its language (`FeedHeads`).
    let feedHeads: FeedHeads

    init(configuration: AppConfiguration, renderer: PageRenderer, days: DayClock, responses: ResponseCache) {
        self.renderer = renderer
        self.days = days
        layout = LayoutBuilder(baseURL: configuration.effectivePublicBaseURL)
        caches = PageCaches(configuration: configuration, days: days, responses: responses)
        feedHeads = FeedHeads(baseURL: configuration.effectivePublicBaseURL, authority: caches.feedEntries.authority) { language in
            renderer.texts(PageLanguage(language: language, explicit: true))
        }
    }
}
