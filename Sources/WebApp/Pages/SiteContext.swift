import Foundation
import MicroHTTP
import PetDomain

/// What every page handler shares: the renderer, the public base URL, the layout and error pages.
struct SiteContext: Sendable {
    let configuration: AppConfiguration
    let renderer: PageRenderer
    /// Rendered pages reused for the same URL over the same data.
    let rendered = RenderedPages()

    /// Pages are a pure function of the URL and the upstream data: any cache may keep them briefly.
    static let pageCacheControl = "public, max-age=30"

    /// The absolute base for canonical and share URLs, without trailing slash.
    var baseURL: String { configuration.effectivePublicBaseURL }

    /// The layout model for a page.
    func layout(
        title: String,
        description: String,
        canonicalPath: String?,
        ogImage: String? = nil,
        ogType: String = "website",
        location: VisitorLocation,
        isHome: Bool = false,
        isList: Bool = false
    ) -> LayoutModel {
        LayoutModel(
            pageTitle: title,
            metaDescription: description,
            canonicalURL: canonicalPath.map { baseURL + $0 },
            ogTitle: title,
            ogDescription: description,
            ogImage: ogImage,
            ogType: ogType,
            twitterCard: ogImage == nil ? "summary" : "summary_large_image",
            homeURL: QueryString.url(Route.landing.path, location.linkItems),
            listURL: QueryString.url(Route.list.path, location.linkItems),
            isHome: isHome,
            isList: isList,
            locationState: location.origin != nil ? "known" : (location.denied ? "denied" : "unknown")
        )
    }

    /// Renders a page; a 200 gets an ETag and the page cache policy (304 when it matches).
    func page(_ model: Any, template: String, status: Int = 200, request: Request?, stale: Bool = false) -> Response {
        guard let html = renderer.render(model, template: template) else {
            return Response.text("Internal error\n", status: 500)
        }
        return finish(Response.html(html, status: status), request: request, stale: stale)
    }

    /// A page for `request` built from data fetched at `version`: reused from `rendered` when the
    /// same URL was rendered from the same data (fresh data only), else built by `build`.
    func cachedPage(_ request: Request, version: Date, stale: Bool, build: () -> (model: Any, template: String)) -> Response {
        func render() -> Response {
            let (model, template) = build()
            guard let html = renderer.render(model, template: template) else {
                return Response.text("Internal error\n", status: 500)
            }
            var response = Response.html(html)
            response.headers["ETag"] = ConditionalGet.etag(for: response.body)
            return response
        }
        let key = QueryString.url(request.path, keeping: request.query)
        let response = stale ? render() : rendered.response(for: key, version: version, render: render)
        return finish(response, request: request, stale: stale)
    }

    /// Cache headers (and 304) for a 200; `no-store` for anything else.
    private func finish(_ response: Response, request: Request?, stale: Bool) -> Response {
        var response = response
        let status = response.status
        if status == 200, let request {
            // A stale copy must not be kept by caches once the upstream is back.
            ConditionalGet.apply(to: &response, request: request, cacheControl: stale ? "no-cache" : SiteContext.pageCacheControl)
        } else {
            response.headers["Cache-Control"] = "no-store"
        }
        return response
    }

    /// The error page for `status` (product-spec §4 "Errors the visitor can see"): a heading by
    /// status, the given message, and a retry link for upstream failures.
    func errorPage(status: Int, message: String, retryURL: String? = nil, location: VisitorLocation = .unknown) -> Response {
        let heading: String
        switch status {
        case 400: heading = "Check the address"
        case 404: heading = "Not found"
        case 405: heading = "Method not allowed"
        case 502, 504: heading = "Unable to load data"
        case 503: heading = "Unavailable"
        default: heading = "Something went wrong"
        }
        let model = ErrorPageModel(
            layout: layout(title: "\(heading) · PetSpot", description: message, canonicalPath: nil, location: location),
            status: status,
            heading: heading,
            message: message,
            retryURL: retryURL,
            listURL: QueryString.url(Route.list.path, location.linkItems),
            homeURL: QueryString.url(Route.landing.path, location.linkItems)
        )
        var response = page(model, template: "error", status: status, request: nil)
        if status == 405 { response.headers["Allow"] = "GET, HEAD" }
        return response
    }

    /// The 400 page for a bad query parameter, linking to the same page (its other parameters kept)
    /// without location and without the bad parameter.
    func badQuery(_ problem: QueryProblem, path: String, query: QueryItems) -> Response {
        let dropped: Set<String> = ["lat", "lng", "range", "location", problem.parameter]
        let kept = query.items.filter { !dropped.contains($0.name) }.map { ($0.name, Optional($0.value)) }
        return errorPage(status: 400, message: "The parameter ‘\(problem.parameter)’ is not valid: \(problem.message)",
                         retryURL: QueryString.url(path, kept))
    }

    /// The public URL of a photo: our `/images/` proxy for upstream paths, the URL itself otherwise.
    static func photoURL(_ photo: Photo?) -> String? {
        switch photo {
        case .upstreamPath(let path)?:
            let below = path.hasPrefix("/images/") ? String(path.dropFirst("/images/".count)) : path
            return Route.image(path: below).path
        case .absolute(let url)?:
            return url.absoluteString
        case nil:
            return nil
        }
    }

    /// An absolute photo URL for share tags.
    func absolutePhotoURL(_ photo: Photo?) -> String? {
        guard let url = SiteContext.photoURL(photo) else { return nil }
        return url.hasPrefix("/") ? baseURL + url : url
    }
}
