import Foundation

extension AppConfiguration {
    /// The settings of the report flow (docs/report-flow.md): how many reports one address may
    /// make, which reverse proxies may name the client, and the memory for kept photos.
    static let reportSettings: [Setting] = [
        Setting(
            "report-limit",
            "PETSPOT_REPORT_LIMIT",
            \.reportLimit,
            .integer(0...100_000),
            help: "Accepted reports per client address per 10 minutes; 0 turns the limit off.",
            about: " accepted reports per client address per 10 minutes (`0` turns the limit off); more get a 429 with `Retry-After`"
        ),
        Setting(
            "api-report-limit",
            "PETSPOT_API_REPORT_LIMIT",
            \.apiReportLimit,
            .integer(0...100_000),
            help: "API reports (POST /api/v1/announcements) per client address per 10 minutes; 0 turns the limit off.",
            about: " reports created through `POST /api/v1/announcements` per client address per 10 minutes, counted apart from the "
                + "form's (`0` turns it off): phones behind a carrier's shared address all count as one (docs/report-flow.md)"
        ),
        Setting(
            "trusted-proxies",
            "PETSPOT_TRUSTED_PROXIES",
            \.trustedProxies,
            SettingKind(valueName: "addresses", show: { $0.isEmpty ? nil : $0.joined(separator: ",") }) { text, name in
                let addresses = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                guard !addresses.isEmpty, addresses.allSatisfy(isIPAddress) else {
                    throw ConfigurationError(setting: name, problem: "'\(text)' is not a comma-separated list of IP addresses")
                }
                return addresses
            },
            help: "Comma-separated IP addresses of reverse proxies trusted to send X-Forwarded-For.",
            about: "none: the client address is the peer's; a comma-separated list of proxy addresses whose `X-Forwarded-For` names the client "
                + "(for the report limits)"
        ),
        Setting(
            "report-photo-cache-mb",
            "PETSPOT_REPORT_PHOTO_CACHE_MB",
            \.reportPhotoCacheMegabytes,
            .megabytes(1...65536),
            help: "Memory for photos of reports being corrected, in MiB.",
            about: " MiB for photos kept while a refused report is corrected (each kept an hour, oldest out first)"
        ),
        Setting(
            "database-url",
            "PETSPOT_DATABASE_URL",
            \.databaseURL,
            SettingKind<String>(valueName: "url", show: { _ in nil }) { text, name in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard let url = URLComponents(string: trimmed), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
                    throw ConfigurationError(setting: name, problem: "'\(redactedDatabaseURL(trimmed))' is not a postgres:// URL")
                }
                return trimmed
            }.optional,
            help: "PostgreSQL URL of the write store shared by every replica; without it, one replica only.",
            about: "none: submissions, kept photos and limits live in this process's memory — right for **one replica only**; "
                + "`postgres://user:password@host:port/database` shares them between replicas (docs/replicas.md)",
            key: "none: one replica only; PostgreSQL shares reports between replicas"
        ),
    ]
}

/// A database URL as it may be logged or shown: without its password.
func redactedDatabaseURL(_ text: String) -> String {
    guard var parts = URLComponents(string: text), parts.password != nil else { return text }
    parts.password = "***"
    return parts.string ?? "postgres://…"
}
