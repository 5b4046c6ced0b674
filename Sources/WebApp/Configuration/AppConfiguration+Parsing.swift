import Foundation
import Logging

extension AppConfiguration {
    /// Every setting, declared once (docs/settings.md shows it as a table): flag, environment variable,
    /// default as documented, help text and how its text is read and checked. `resolve`, the
    /// environment names, `--help` (the executable builds its options text from this) and the
    /// settings table of docs/settings.md (a test compares them) all come from here.
    public static let settings: [Setting] =
        [
            Setting("host", "HOST", "`127.0.0.1`", "Address to bind, e.g. 127.0.0.1 or 0.0.0.0.") { text, _, configuration in
                configuration.host = text.trimmingCharacters(in: .whitespaces)
            },
            Setting("port", "PORT", "`8080` (0 picks a free port)", "Port to bind; 0 picks a free one.") { text, name, configuration in
                configuration.port = try integer(text, in: 0...65535, setting: name)
            },
            Setting(
                "upstream",
                "PETSPOT_UPSTREAM_URL",
                "none: the embedded demo upstream starts in-process",
                "PetSpot backend base URL; without it the embedded demo upstream runs."
            ) { text, name, configuration in
                configuration.upstreamURL = try httpURL(text, setting: name)
            },
            Setting(
                "public-base-url",
                "PETSPOT_PUBLIC_BASE_URL",
                "`http://HOST:PORT` (`localhost` for `0.0.0.0`) — set it in production: share links and `og:url` use it",
                "Absolute base URL for share links."
            ) { text, name, configuration in
                configuration.publicBaseURL = try httpURL(text, setting: name)
            },
            Setting("upstream-timeout", "PETSPOT_UPSTREAM_TIMEOUT", "`5` seconds", "Seconds for one upstream call.") { text, name, configuration in
                configuration.upstreamTimeoutSeconds = try seconds(text, in: 0.1...120, setting: name)
            },
            Setting(
                "cache-ttl",
                "PETSPOT_CACHE_TTL",
                "`30` seconds: the whole upstream list is fetched at most once per TTL (fractions such as `3` or `0.5` are fine for tests)",
                "Seconds a validated result stays fresh."
            ) { text, name, configuration in
                configuration.cacheTTLSeconds = try seconds(text, in: 0...3600, setting: name)
            },
            Setting(
                "stale-max",
                "PETSPOT_STALE_MAX",
                "`600` seconds (stale-if-error)",
                "Seconds a cached copy may be served while the upstream fails."
            ) { text, name, configuration in
                configuration.staleMaxSeconds = try seconds(text, in: 0...86400, setting: name)
            },
            Setting("log-level", "PETSPOT_LOG_LEVEL", "`info`", "trace|debug|info|notice|warning|error|critical.") { text, name, configuration in
                guard let level = Logger.Level(rawValue: text.lowercased()) else {
                    throw ConfigurationError(setting: name, problem: "'\(text)' is not one of trace, debug, info, notice, warning, error, critical")
                }
                configuration.logLevel = level
            },
            Setting("log-format", "PETSPOT_LOG_FORMAT", "`text` (`json` for collectors)", "text|json.") { text, name, configuration in
                guard let format = LogFormat(rawValue: text.lowercased()) else {
                    throw ConfigurationError(setting: name, problem: "'\(text)' is not one of text, json")
                }
                configuration.logFormat = format
            },
            Setting("public-dir", "PETSPOT_PUBLIC_DIR", "`Public`", "Static files folder.") { text, _, configuration in
                configuration.publicDirectory = text
            },
            Setting("templates-dir", "PETSPOT_TEMPLATES_DIR", "`Templates`", "Templates folder.") { text, _, configuration in
                configuration.templatesDirectory = text
            },
            Setting(
                "places-file",
                "PETSPOT_PLACES_FILE",
                "`Data/places.tsv` (GeoNames places, CC BY 4.0, made by `scripts/geonames/make-places.py`); empty: no place names",
                "Place names data file."
            ) { text, _, configuration in
                configuration.placesFile = text
            },
            Setting("threads", "PETSPOT_THREADS", "`4`", "Server threads.") { text, name, configuration in
                configuration.threadCount = try integer(text, in: 1...64, setting: name)
            },
            Setting(
                "upstream-max-body-mb",
                "PETSPOT_UPSTREAM_MAX_BODY_MB",
                "`64` MiB: the largest upstream JSON body (the whole list is one body; 50,000 announcements are about 28 MB). "
                    + "Over it: the 502 page, a log line naming this setting, `petspot_upstream_failures_total{reason=\"body_too_large\"}`",
                "Largest upstream JSON body in MiB (the whole list is one body)."
            ) { text, name, configuration in
                configuration.upstreamMaxBodyMegabytes = try integer(text, in: 1...4096, setting: name)
            },
            Setting(
                "page-cache-mb",
                "PETSPOT_PAGE_CACHE_MB",
                "`32` MiB for rendered pages and API bodies (¾, least recently used out first; a page is kept the second time it is made) "
                    + "and the server's kept answers for repeated URLs (¼)",
                "Memory for rendered pages, API bodies and kept answers, in MiB."
            ) { text, name, configuration in
                configuration.pageCacheMegabytes = try integer(text, in: 1...65536, setting: name)
            },
            Setting(
                "max-details-calls",
                "PETSPOT_MAX_DETAILS_CALLS",
                "`8` upstream details calls at once; more distinct ids at the same moment get a 503",
                "Most upstream details calls at once."
            ) { text, name, configuration in
                configuration.maxDetailsCalls = try integer(text, in: 1...1024, setting: name)
            },
            Setting(
                "max-connections",
                "PETSPOT_MAX_CONNECTIONS",
                "`10000`, lowered to the open-file limit less 256 (the soft limit is raised to the hard one at startup); "
                    + "at the limit new connections wait in the kernel's backlog",
                "Most simultaneous connections."
            ) { text, name, configuration in
                configuration.maxConnections = try integer(text, in: 16...1_000_000, setting: name)
            },
            Setting(
                "max-connections-per-address",
                "PETSPOT_MAX_CONNECTIONS_PER_ADDRESS",
                "`100`; more from one IP address are closed at once and counted (`petspot_connections_refused_total`). "
                    + "`0` turns it off: set 0 behind a reverse proxy, where every connection comes from the proxy",
                "Most simultaneous connections from one IP address; 0: no limit (behind a proxy)."
            ) { text, name, configuration in
                configuration.maxConnectionsPerAddress = try integer(text, in: 0...1_000_000, setting: name)
            },
            Setting(
                "header-timeout",
                "PETSPOT_HEADER_TIMEOUT",
                "`10` seconds for a request's headers to arrive, however slowly they trickle; past it the connection is closed "
                    + "(`petspot_connections_cut_total`)",
                "Seconds for a request's headers to arrive."
            ) { text, name, configuration in
                configuration.headerTimeoutSeconds = try seconds(text, in: 1...3600, setting: name)
            },
            Setting(
                "photo-ttl",
                "PETSPOT_PHOTO_TTL",
                "`86400` seconds (a day): a photo variant is served without asking the upstream this long, "
                    + "then revalidated with its ETag/Last-Modified; "
                    + "a missing photo (upstream 404) is remembered as long",
                "Seconds a photo variant is served before it is revalidated."
            ) { text, name, configuration in
                configuration.photoTTLSeconds = try seconds(text, in: 0...31_536_000, setting: name)
            },
            Setting(
                "image-cache-mb",
                "PETSPOT_IMAGE_CACHE_MB",
                "`64` MiB of photo variants in memory (least recently used out first)",
                "Memory for photo variants, in MiB."
            ) { text, name, configuration in
                configuration.imageCacheMegabytes = try integer(text, in: 1...65536, setting: name)
            },
            Setting(
                "image-cache-dir",
                "PETSPOT_IMAGE_CACHE_DIR",
                "none: photo variants are kept in memory only; a folder keeps them across restarts too "
                    + "(created when missing; only variants, never originals)",
                "Folder that keeps photo variants across restarts."
            ) { text, name, configuration in
                configuration.imageCacheDirectory = try folder(text, setting: name)
            },
            Setting(
                "image-cache-disk-mb",
                "PETSPOT_IMAGE_CACHE_DISK_MB",
                "`1024` MiB in `--image-cache-dir` (least recently used out first)",
                "Disk space for photo variants in --image-cache-dir, in MiB."
            ) { text, name, configuration in
                configuration.imageCacheDiskMegabytes = try integer(text, in: 1...1_048_576, setting: name)
            },
            Setting(
                "max-photo-megapixels",
                "PETSPOT_MAX_PHOTO_MEGAPIXELS",
                "`50`: a photo whose header declares more pixels is refused before decoding (decompression bombs)",
                "Most megapixels a photo may declare."
            ) { text, name, configuration in
                configuration.maxPhotoMegapixels = try integer(text, in: 1...1000, setting: name)
            },
        ] + mapSettings + reportSettings

    /// Environment variable of each flag.
    public static let environmentNames: [String: String] = Dictionary(uniqueKeysWithValues: settings.map { ($0.flag, $0.environment) })

    /// The setting name of the upstream body limit, as error messages and the log name it.
    public static let upstreamMaxBodySetting = settings.first { $0.flag == "upstream-max-body-mb" }!.name

    /// The settings table rows of docs/settings.md, from `settings`.
    public static var settingsTable: String {
        (["| flag | environment | default |", "|---|---|---|"]
            + settings.map { "| `--\($0.flag)` | `\($0.environment)` | \($0.documentedDefault) |" }).joined(separator: "\n")
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

    fileprivate static func seconds(_ text: String, in range: ClosedRange<Double>, setting: String) throws(ConfigurationError) -> Double {
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite, range.contains(number) else {
            throw ConfigurationError(
                setting: setting,
                problem: "'\(text)' is not a number of seconds from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }

    /// A folder name, trimmed; an empty one is refused.
    static func folder(_ text: String, setting: String) throws(ConfigurationError) -> String {
        let path = text.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { throw ConfigurationError(setting: setting, problem: "empty folder name") }
        return path
    }

    fileprivate static func httpURL(_ text: String, setting: String) throws(ConfigurationError) -> URL {
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

/// One setting of `AppConfiguration.settings`.
public struct Setting: Sendable {
    /// The flag without dashes, e.g. `cache-ttl`.
    public let flag: String
    /// The environment variable, e.g. `PETSPOT_CACHE_TTL`.
    public let environment: String
    /// The default as docs/settings.md shows it (Markdown).
    public let documentedDefault: String
    /// One line for `--help`.
    public let help: String
    /// Reads and checks `text`, the value of setting `name`, into the configuration.
    /// (Untyped `throws`: trailing closures do not infer a typed one; `resolve` passes on its
    /// `ConfigurationError`s.)
    let apply: @Sendable (_ text: String, _ name: String, _ configuration: inout AppConfiguration) throws -> Void

    init(
        _ flag: String,
        _ environment: String,
        _ documentedDefault: String,
        _ help: String,
        apply: @escaping @Sendable (_ text: String, _ name: String, _ configuration: inout AppConfiguration) throws -> Void
    ) {
        self.flag = flag
        self.environment = environment
        self.documentedDefault = documentedDefault
        self.help = help
        self.apply = apply
    }

    /// How errors and the log name it: `--cache-ttl / PETSPOT_CACHE_TTL`.
    public var name: String { "--\(flag) / \(environment)" }
}
