import Foundation
import Logging

extension AppConfiguration {
    /// Every setting, declared once (`Setting`): flag, environment variable, the property it sets,
    /// its kind (type, range, parser) and help; the default is the property's initial value. `resolve`,
    /// the environment names, the executable's options and `--help` (ArgumentParser options made from
    /// these), and the settings table of docs/settings.md (`petspot-web --settings-markdown`, compared
    /// by a test) all come from here.
    public static let settings: [Setting] =
        [
            Setting("host", "HOST", \.host, .text("address", trimmed: true), help: "Address to bind, e.g. 127.0.0.1 or 0.0.0.0.", key: ""),
            Setting("port", "PORT", \.port, .integer(0...65535), help: "Port to bind; 0 picks a free one.", about: " (0 picks a free port)", key: ""),
            Setting(
                "upstream",
                "PETSPOT_UPSTREAM_URL",
                \.upstreamURL,
                SettingKind<URL>.httpURL.optional,
                help: "PetSpot backend base URL; without it the embedded demo upstream runs.",
                about: "none: the embedded demo upstream starts in-process",
                key: "none: the embedded demo upstream starts in-process"
            ),
            Setting(
                "public-base-url",
                "PETSPOT_PUBLIC_BASE_URL",
                \.publicBaseURL,
                SettingKind<URL>.httpURL.optional,
                help: "Absolute base URL for share links.",
                about: "`http://HOST:PORT` (`localhost` for `0.0.0.0`) — set it in production: share links and `og:url` use it",
                key: "`http://HOST:PORT` — set it in production: share links use it"
            ),
            Setting(
                "upstream-timeout",
                "PETSPOT_UPSTREAM_TIMEOUT",
                \.upstreamTimeoutSeconds,
                .seconds(0.1...120),
                help: "Seconds for one upstream call.",
                about: " seconds"
            ),
            Setting(
                "cache-ttl",
                "PETSPOT_CACHE_TTL",
                \.cacheTTLSeconds,
                .seconds(0...3600),
                help: "Seconds a validated result stays fresh.",
                about: " seconds: the whole upstream list is fetched at most once per TTL (fractions such as `3` or `0.5` are fine for tests)",
                key: " s: the upstream list is fetched at most once per TTL"
            ),
            Setting(
                "stale-max",
                "PETSPOT_STALE_MAX",
                \.staleMaxSeconds,
                .seconds(0...86400),
                help: "Seconds a cached copy may be served while the upstream fails.",
                about: " seconds (stale-if-error)"
            ),
            Setting(
                "refresh-window",
                "PETSPOT_REFRESH_WINDOW",
                \.refreshWindowSeconds,
                .seconds(0...600),
                help: "Seconds past the TTL the held list answers while the next is fetched.",
                about: " seconds: no request waits for a list refresh it did not ask for (at most `--stale-max`; 0: they wait)"
            ),
            Setting("log-level", "PETSPOT_LOG_LEVEL", \.logLevel, .oneOf(Logger.Level.allCases), help: "How much is logged."),
            Setting(
                "log-format",
                "PETSPOT_LOG_FORMAT",
                \.logFormat,
                .oneOf(LogFormat.allCases),
                help: "Format of the log lines.",
                about: " (`json` for collectors)",
                key: " (`json` for collectors)"
            ),
            Setting("public-dir", "PETSPOT_PUBLIC_DIR", \.publicDirectory, .text("folder"), help: "Static files folder."),
            Setting("templates-dir", "PETSPOT_TEMPLATES_DIR", \.templatesDirectory, .text("folder"), help: "Templates folder."),
            Setting(
                "places-file",
                "PETSPOT_PLACES_FILE",
                \.placesFile,
                .text("file"),
                help: "Place names data file.",
                about: " (GeoNames places, CC BY 4.0, made by `scripts/geonames/make-places.py`); empty: no place names"
            ),
            Setting("threads", "PETSPOT_THREADS", \.threadCount, .integer(1...64), help: "Server threads.", key: ""),
            Setting(
                "upstream-max-body-mb",
                "PETSPOT_UPSTREAM_MAX_BODY_MB",
                \.upstreamMaxBodyMegabytes,
                .megabytes(1...4096),
                help: "Largest upstream JSON body in MiB (the whole list is one body).",
                about: " MiB: the largest upstream JSON body (the whole list is one body; 50,000 announcements are about 28 MB). "
                    + "Over it: the 502 page, a log line naming this setting, `petspot_upstream_failures_total{reason=\"body_too_large\"}`"
            ),
            Setting(
                "page-cache-mb",
                "PETSPOT_PAGE_CACHE_MB",
                \.pageCacheMegabytes,
                .megabytes(1...65536),
                help: "Memory for the response cache (pages, API bodies, fresh photos), in MiB.",
                about: " MiB for the response cache: pages and API bodies whole, with their compressed forms and what the server's hook "
                    + "sends for repeated URLs (least recently used out first; a page is kept the second time it is made)"
            ),
            Setting(
                "max-details-calls",
                "PETSPOT_MAX_DETAILS_CALLS",
                \.maxDetailsCalls,
                .integer(1...1024),
                help: "Most upstream details calls at once.",
                about: " upstream details calls at once; more distinct ids at the same moment get a 503"
            ),
            Setting(
                "max-connections",
                "PETSPOT_MAX_CONNECTIONS",
                \.maxConnections,
                .integer(16...1_000_000),
                help: "Most simultaneous connections.",
                about: ", lowered to the open-file limit less 256 (the soft limit is raised to the hard one at startup); "
                    + "at the limit new connections wait in the kernel's backlog"
            ),
            Setting(
                "max-connections-per-address",
                "PETSPOT_MAX_CONNECTIONS_PER_ADDRESS",
                \.maxConnectionsPerAddress,
                .integer(0...1_000_000),
                help: "Most simultaneous connections from one IP address; 0: no limit (behind a proxy).",
                about: "; more from one IP address are closed at once and counted (`petspot_connections_refused_total`). "
                    + "`0` turns it off: set 0 behind a reverse proxy, where every connection comes from the proxy"
            ),
            Setting(
                "header-timeout",
                "PETSPOT_HEADER_TIMEOUT",
                \.headerTimeoutSeconds,
                .seconds(1...3600),
                help: "Seconds for a request's headers to arrive.",
                about: " seconds for a request's headers to arrive, however slowly they trickle; past it the connection is closed "
                    + "(`petspot_connections_cut_total`)"
            ),
            Setting(
                "photo-ttl",
                "PETSPOT_PHOTO_TTL",
                \.photoTTLSeconds,
                .seconds(0...31_536_000),
                help: "Seconds a photo variant is served before it is revalidated.",
                about: " seconds (a day): a photo variant is served without asking the upstream this long, "
                    + "then revalidated with its ETag/Last-Modified; "
                    + "a missing photo (upstream 404) is remembered as long"
            ),
            Setting(
                "image-cache-mb",
                "PETSPOT_IMAGE_CACHE_MB",
                \.imageCacheMegabytes,
                .megabytes(1...65536),
                help: "Memory for photo variants, in MiB.",
                about: " MiB of photo variants in memory (least recently used out first)"
            ),
            Setting(
                "image-cache-dir",
                "PETSPOT_IMAGE_CACHE_DIR",
                \.imageCacheDirectory,
                SettingKind<String>.folder.optional,
                help: "Folder that keeps photo variants across restarts.",
                about: "none: photo variants are kept in memory only; a folder keeps them across restarts too "
                    + "(created when missing; only variants, never originals)"
            ),
            Setting(
                "image-cache-disk-mb",
                "PETSPOT_IMAGE_CACHE_DISK_MB",
                \.imageCacheDiskMegabytes,
                .megabytes(1...1_048_576),
                help: "Disk space for photo variants in --image-cache-dir, in MiB.",
                about: " MiB in `--image-cache-dir` (least recently used out first)"
            ),
            Setting(
                "max-photo-megapixels",
                "PETSPOT_MAX_PHOTO_MEGAPIXELS",
                \.maxPhotoMegapixels,
                .integer(1...1000),
                help: "Most megapixels a photo may declare.",
                about: ": a photo whose header declares more pixels is refused before decoding (decompression bombs)"
            ),
        ] + mapSettings + reportSettings + mailSettings

    /// The setting name of the upstream body limit, as error messages and the log name it.
    static let upstreamMaxBodySetting = settings.first { $0.flag == "upstream-max-body-mb" }!.name

    /// The settings table of docs/settings.md, from `settings`.
    public static var settingsTable: String {
        table(settings.map { ($0, $0.documentedDefault) })
    }

    /// The README's table of the key settings, from `settings`.
    public static var keySettingsTable: String {
        table(settings.compactMap { setting in setting.keyDefault.map { (setting, $0) } })
    }

    private static func table(_ rows: [(setting: Setting, shownDefault: String)]) -> String {
        (["| flag | environment | default |", "|---|---|---|"]
            + rows.map { "| `--\($0.setting.flag)` | `\($0.setting.environment)` | \($0.shownDefault) |" }).joined(separator: "\n")
    }

    /// Builds the configuration from flags (wins) and environment; throws the first bad setting.
    public static func resolve(flags: [String: String?], environment: [String: String]) throws(ConfigurationError) -> AppConfiguration {
        var configuration = AppConfiguration()
        for setting in settings {
            let text: String? =
                if let given = flags[setting.flag] ?? nil {
                    given
                } else if let fromEnvironment = environment[setting.environment], !fromEnvironment.isEmpty {
                    fromEnvironment
                } else {
                    nil
                }
            guard let text else { continue }
            do {
                try setting.apply(text, setting.name, &configuration)
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError(setting: setting.name, problem: "\(error)")
            }
        }
        guard configuration.host == "localhost" || isIPAddress(configuration.host) else {
            throw ConfigurationError(setting: "--host / HOST", problem: "'\(configuration.host)' is not an IP address (use 127.0.0.1, 0.0.0.0 or ::)")
        }
        return configuration
    }

    /// A whole number within `range`; anything else names `setting`.
    static func integer(_ text: String, in range: ClosedRange<Int>, setting: String) throws(ConfigurationError) -> Int {
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            throw ConfigurationError(setting: setting, problem: "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A folder name, trimmed; an empty one is refused.
    static func folder(_ text: String, setting: String) throws(ConfigurationError) -> String {
        let path = text.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { throw ConfigurationError(setting: setting, problem: "empty folder name") }
        return path
    }

    static func httpURL(_ text: String, setting: String) throws(ConfigurationError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else {
            // The value is not echoed: a URL can carry credentials.
            throw ConfigurationError(setting: setting, problem: "not an absolute http(s) URL without query, e.g. http://localhost:3000")
        }
        return url
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
