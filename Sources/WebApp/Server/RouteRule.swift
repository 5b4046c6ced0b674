import HTTPTypes
import MicroHTTP

/// What a route takes, declared with its entry of the route table (`RouteTable`): its methods (in `Allow` order), the body a write may
/// carry and the form its errors take. The body policy (`WritePolicy`), every 405 with its `Allow`
/// and the OpenAPI check of methods (`OpenAPIDocumentTests`) read it; nothing else decides them.
struct RouteRule: Sendable, Equatable {
    /// The body of a route's write, decided from the head before any byte is read.
    enum Body: Sendable, Equatable {
        /// A JSON create (`Limits.jsonWriteBytes`, `Limits.jsonWriteDeadline`).
        case json
        /// A form with its photo: multipart always, URL-encoded too when `urlEncoded` (the photo API
        /// takes multipart only, as the backend does).
        case form(urlEncoded: Bool)
    }

    /// How an error on this route is written (`ErrorRenderer`): an error page, or the API's JSON error.
    enum Format: Sendable, Equatable {
        case page
        case api
    }

    /// The methods a route may answer, as bits: asked on every request that reaches the router, so
    /// no array (and no reference count shared by the cores) is touched for it.
    struct Methods: OptionSet, Sendable, Equatable {
        let rawValue: UInt8
        static let get = Methods(rawValue: 1)
        static let head = Methods(rawValue: 2)
        static let post = Methods(rawValue: 4)
        /// In the order `Allow` names them.
        static let named: [(Methods, String)] = [(.get, "GET"), (.head, "HEAD"), (.post, "POST")]
    }

    /// The methods this route answers.
    let methods: Methods
    /// What a `POST` here may send; nil when the route takes no body.
    let body: Body?
    let format: Format

    /// GET and HEAD only: the pages, feeds, files and reads.
    static let page = RouteRule(methods: [.get, .head], body: nil, format: .page)
    static let apiRead = RouteRule(methods: [.get, .head], body: nil, format: .api)
    /// A page that also takes its form: GET and HEAD show it, POST sends it (URL-encoded or multipart).
    static let pageWrite = RouteRule(methods: [.get, .head, .post], body: .form(urlEncoded: true), format: .page)

    /// `Allow` of this route's 405.
    var allow: String { Methods.named.filter { methods.contains($0.0) }.map(\.1).joined(separator: ", ") }

    func accepts(_ method: HTTPRequest.Method) -> Bool {
        switch method {
        case .get: methods.contains(.get)
        case .head: methods.contains(.head)
        case .post: methods.contains(.post)
        default: false
        }
    }

    /// Whether a body of `contentType` is one this route reads (a JSON create reads any type, as
    /// the backend does, and says what is wrong with the JSON itself).
    func takes(contentType: String?) -> Bool {
        let type = contentType?.lowercased() ?? ""
        switch body {
        case nil: return false
        case .json?: return true
        case .form(let urlEncoded)?:
            return type.hasPrefix("multipart/form-data") || (urlEncoded && type.hasPrefix("application/x-www-form-urlencoded"))
        }
    }
}
