import Mustache

/// Every error page (400, 404, 405, 502, 504, 500): `Templates/error.mustache`, rendered by `ErrorRenderer`.
@TemplateFields
struct ErrorPageModel: Sendable {
    let layout: LayoutModel
    let status: Int
    let heading: String  // "Unable to load data"
    let message: String  // "Unable to load data. Please try again later."
    let retryURL: String?  // the same URL, for 502/504
    let listURL: String
    let homeURL: String
}

extension ErrorPageModel: ViewModel {}
