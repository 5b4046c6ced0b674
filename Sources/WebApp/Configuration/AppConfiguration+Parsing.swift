import Foundation
import Logging

extension AppConfiguration {
    /// Environment variable of each flag (also listed by `--help`).
    public static let environmentNames: [String: String] = [
        "host": "HOST", "port": "PORT", "upstream": "PETSPOT_UPSTREAM_URL",
        "public-base-url": "PETSPOT_PUBLIC_BASE_URL", "upstream-timeout": "PETSPOT_UPSTREAM_TIMEOUT",
        "cache-ttl": "PETSPOT_CACHE_TTL", "stale-max": "PETSPOT_STALE_MAX", "log-level": "PETSPOT_LOG_LEVEL",
        "log-format": "PETSPOT_LOG_FORMAT", "public-dir": "PETSPOT_PUBLIC_DIR",
        "templates-dir": "PETSPOT_TEMPLATES_DIR", "threads": "PETSPOT_THREADS",
        "upstream-max-body-mb": "PETSPOT_UPSTREAM_MAX_BODY_MB", "page-cache-mb": "PETSPOT_PAGE_CACHE_MB",
        "max-details-calls": "PETSPOT_MAX_DETAILS_CALLS",
    ]

    /// The setting name of the upstream body limit, as error messages and the log name it.
    public static let upstreamMaxBodySetting = "--upstream-max-body-mb / PETSPOT_UPSTREAM_MAX_BODY_MB"

    /// Builds the configuration from flags (wins) and environment; throws the first bad setting.
    public static func resolve(flags: [String: String?], environment: [String: String]) throws(ConfigurationError) -> AppConfiguration {
        func value(_ flag: String) -> (text: String, name: String)? {
            let envName = environmentNames[flag] ?? flag
            let name = "--\(flag) / \(envName)"
            if let given = flags[flag] ?? nil { return (given, name) }
            if let fromEnvironment = environment[envName], !fromEnvironment.isEmpty { return (fromEnvironment, name) }
            return nil
        }
        var configuration = AppConfiguration()
        if let (text, _) = value("host") { configuration.host = text.trimmingCharacters(in: .whitespaces) }
        if let (text, name) = value("port") {
            configuration.port = try integer(text, in: 0...65535, setting: name)
        }
        if let (text, name) = value("upstream") { configuration.upstreamURL = try httpURL(text, setting: name) }
        if let (text, name) = value("public-base-url") { configuration.publicBaseURL = try httpURL(text, setting: name) }
        if let (text, name) = value("upstream-timeout") {
            configuration.upstreamTimeoutSeconds = try seconds(text, in: 0.1...120, setting: name)
        }
        if let (text, name) = value("cache-ttl") { configuration.cacheTTLSeconds = try seconds(text, in: 0...3600, setting: name) }
        if let (text, name) = value("stale-max") { configuration.staleMaxSeconds = try seconds(text, in: 0...86400, setting: name) }
        if let (text, name) = value("log-level") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ConfigurationError(setting: name, problem: "'\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = level
        }
        if let (text, name) = value("log-format") {
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw ConfigurationError(setting: name, problem: "'\(text)' is not one of text, json")
            }
            configuration.logFormat = format
        }
        if let (text, _) = value("public-dir") { configuration.publicDirectory = text }
        if let (text, _) = value("templates-dir") { configuration.templatesDirectory = text }
        if let (text, name) = value("threads") { configuration.threadCount = try integer(text, in: 1...64, setting: name) }
        if let (text, name) = value("upstream-max-body-mb") {
            configuration.upstreamMaxBodyMegabytes = try integer(text, in: 1...4096, setting: name)
        }
        if let (text, name) = value("page-cache-mb") { configuration.pageCacheMegabytes = try integer(text, in: 1...65536, setting: name) }
        if let (text, name) = value("max-details-calls") { configuration.maxDetailsCalls = try integer(text, in: 1...1024, setting: name) }
        guard configuration.host == "localhost" || isIPAddress(configuration.host) else {
            throw ConfigurationError(setting: "--host / HOST", problem: "'\(configuration.host)' is not an IP address (use 127.0.0.1, 0.0.0.0 or ::)")
        }
        return configuration
    }

    private static func integer(_ text: String, in range: ClosedRange<Int>, setting: String) throws(ConfigurationError) -> Int {
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            throw ConfigurationError(setting: setting, problem: "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func seconds(_ text: String, in range: ClosedRange<Double>, setting: String) throws(ConfigurationError) -> Double {
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite, range.contains(number) else {
            throw ConfigurationError(setting: setting, problem: "'\(text)' is not a number of seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func httpURL(_ text: String, setting: String) throws(ConfigurationError) -> URL {
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

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
