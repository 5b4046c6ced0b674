import Alerts
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import Mustache
import PetAPIClient
import PetDomain

/// The alert pages' paths, and their tokens kept out of the log (docs/alerts.md "Privacy"): every
/// path below `/alerts/` is logged with its token cut.
enum AlertLinks {
    /// `/alerts/{action}/{token}` with `lang` when the language is known.
    static func path(_ route: Route, language: PageLanguage) -> String {
        LayoutBuilder.withLanguage(route.path, language)
    }

    /// The absolute link of `route` on the public base URL.
    static func absolute(_ route: Route, base: String, language: String) -> String {
        base + route.path + "?lang=" + language
    }

    /// `path` for the log: a token below `/alerts/` replaced by `…`, so a log never carries a link's secret.
    static func redacted(_ path: String) -> String {
        guard path.hasPrefix("/alerts/") else { return path }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 4 else { return path }
        return parts.prefix(3).joined(separator: "/") + "/…"
    }
}
