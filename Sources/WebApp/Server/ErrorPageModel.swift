import Mustache

/// Every error page (400, 404, 405, 502, 504, 500): `Templates/error.mustache`, rendered by `ErrorRenderer`.
@TemplateFields
package struct ErrorPageModel: Sendable {
    package let layout: LayoutModel
    package let status: Int
    package let heading: String  // "Unable to load data"
    package let message: String  // "Unable to load data. Please try again later."
    package let retryURL: String?  // the same URL, for 502/504
    package let listURL: String
    package let homeURL: String
}

extension ErrorPageModel: ViewModel {}
