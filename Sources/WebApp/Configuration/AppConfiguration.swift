import Foundation
import Logging

/// Every setting of the server, parsed once at startup (docs/upstream.md §5). Each has a command-line
/// flag and an environment variable; the flag wins. A bad value stops startup with an error that
/// names the setting (never silently falls back to a default).
public struct AppConfiguration: Sendable, Equatable {
    /// Output format of the log lines.
    public enum LogFormat: String, Sendable, CaseIterable { case text, json }

    /// Address to bind (`HOST`).
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free one (`PORT`).
    public var port: Int = 8080
    /// The PetSpot backend; nil starts the embedded demo upstream (`PETSPOT_UPSTREAM_URL`).
    public var upstreamURL: URL?
    /// Absolute base for share links and Open Graph tags (`PETSPOT_PUBLIC_BASE_URL`); nil derives
    /// `http://HOST:PORT` (with `localhost` for a wildcard host).
    public var publicBaseURL: URL?
    /// Total time allowed for one upstream call, in seconds (`PETSPOT_UPSTREAM_TIMEOUT`).
    public var upstreamTimeoutSeconds: Double = 5
    /// How long a validated upstream result is fresh, in seconds (`PETSPOT_CACHE_TTL`).
    public var cacheTTLSeconds: Double = 30
    /// How old a cached result may be when served because the upstream fails (`PETSPOT_STALE_MAX`).
    public var staleMaxSeconds: Double = 600
    /// How long past the TTL the held list still answers at once while the next is fetched and indexed, in
    /// seconds (`PETSPOT_REFRESH_WINDOW`); 0: the first request after the TTL, and all meanwhile, wait for it.
    public var refreshWindowSeconds: Double = 15
    /// Log level (`PETSPOT_LOG_LEVEL`).
    public var logLevel: Logger.Level = .info
    /// Log format (`PETSPOT_LOG_FORMAT`).
    public var logFormat: LogFormat = .text
    /// Folder of static files served under /static/ (`PETSPOT_PUBLIC_DIR`).
    public var publicDirectory: String = "Public"
    /// Folder of Mustache templates (`PETSPOT_TEMPLATES_DIR`).
    public var templatesDirectory: String = "Templates"
    /// GeoNames places for place names (`PETSPOT_PLACES_FILE`); empty turns place names off.
    public var placesFile: String = "Data/places.tsv"
    /// libmicrohttpd worker threads (`PETSPOT_THREADS`).
    public var threadCount: Int = 4
    /// Largest upstream JSON body accepted, in MiB (`PETSPOT_UPSTREAM_MAX_BODY_MB`): the whole list
    /// comes in one body (50,000 announcements are about 35 MiB).
    public var upstreamMaxBodyMegabytes: Int = 64
    /// Memory for the response cache (pages, encoded API bodies, fresh photos), in MiB (`PETSPOT_PAGE_CACHE_MB`).
    public var pageCacheMegabytes: Int = 32
    /// Most details calls to the upstream at once (`PETSPOT_MAX_DETAILS_CALLS`).
    public var maxDetailsCalls: Int = 8
    /// Most simultaneous connections (`PETSPOT_MAX_CONNECTIONS`); the file-descriptor limit may
    /// lower it (see `ServerConfiguration.connectionLimit`).
    public var maxConnections: Int = 10_000
    /// Most simultaneous connections from one address (`PETSPOT_MAX_CONNECTIONS_PER_ADDRESS`);
    /// 0 turns the limit off, as it must be behind a reverse proxy (every connection comes from it).
    public var maxConnectionsPerAddress: Int = 100
    /// Seconds a request's headers may take to arrive, however they trickle (`PETSPOT_HEADER_TIMEOUT`).
    public var headerTimeoutSeconds: Double = 10
    /// How long a photo variant is served without asking the upstream, in seconds
    /// (`PETSPOT_PHOTO_TTL`); then it is revalidated with the upstream's ETag/Last-Modified.
    public var photoTTLSeconds: Double = 86_400
    /// Memory for photo variants, in MiB (`PETSPOT_IMAGE_CACHE_MB`).
    public var imageCacheMegabytes: Int = 64
    /// A folder that also keeps photo variants across restarts (`PETSPOT_IMAGE_CACHE_DIR`); nil: memory only.
    public var imageCacheDirectory: String?
    /// Disk space for photo variants in `imageCacheDirectory`, in MiB (`PETSPOT_IMAGE_CACHE_DISK_MB`).
    public var imageCacheDiskMegabytes: Int = 1024
    /// The most pixels a photo's header may declare, in megapixels (`PETSPOT_MAX_PHOTO_MEGAPIXELS`).
    public var maxPhotoMegapixels: Int = 50
    /// The map tile server, a URL template with `{z}`, `{x}` and `{y}` (`PETSPOT_TILE_URL`).
    public var tileURLTemplate: String = AppConfiguration.openStreetMapTiles
    /// A URL or e-mail address for the tile server's operators, sent in our User-Agent
    /// (`PETSPOT_TILE_CONTACT`); nil: the public base URL.
    public var tileContact: String?
    /// Memory for map tiles, in MiB (`PETSPOT_TILE_CACHE_MB`).
    public var tileCacheMegabytes: Int = 64
    /// A folder that also keeps map tiles across restarts (`PETSPOT_TILE_CACHE_DIR`); nil: memory only.
    public var tileCacheDirectory: String?
    /// Disk space for map tiles in `tileCacheDirectory`, in MiB (`PETSPOT_TILE_CACHE_DISK_MB`).
    public var tileCacheDiskMegabytes: Int = 1024
    /// Where Debian installs browser libraries: Leaflet and Leaflet.markercluster are read from
    /// its `leaflet/` folder (`PETSPOT_JAVASCRIPT_DIR`).
    public var javascriptDirectory: String = "/usr/share/javascript"
    /// Accepted reports per client address per 10 minutes; 0: no limit (`PETSPOT_REPORT_LIMIT`).
    public var reportLimit: Int = 5
    /// Reports created through the JSON API per client address per 10 minutes, counted apart from the
    /// form's; 0: no limit (`PETSPOT_API_REPORT_LIMIT`). Higher than the form's: many phones share
    /// one carrier address (docs/report-flow.md "Abuse").
    public var apiReportLimit: Int = 30
    /// Reverse proxies whose `X-Forwarded-For` names the client (`PETSPOT_TRUSTED_PROXIES`).
    public var trustedProxies: [String] = []
    /// Memory for photos kept while a refused report is corrected, in MiB (`PETSPOT_REPORT_PHOTO_CACHE_MB`).
    public var reportPhotoCacheMegabytes: Int = 64
    /// The PostgreSQL URL of the write store shared by the replicas (docs/replicas.md); nil: in memory, one replica only.
    public var databaseURL: String?
    /// The SMTP server alerts are sent through (`smtp://user:pass@host:587`, `smtps://host:465`); nil: mails
    /// are written to `mailDirectory` as a Maildir (docs/alerts.md "Delivery").
    public var smtpURL: String?
    /// TLS with the SMTP server; nil: `required`, or `opportunistic` for a loopback host.
    public var smtpTLS: SMTPTLSMode?
    /// Seconds one SMTP delivery may take before it counts as a temporary failure (`PETSPOT_SMTP_TIMEOUT`).
    public var smtpTimeoutSeconds: Int = 30
    /// The `From` of every mail; nil: `PetSpot <alerts@HOST>` of the public base URL.
    public var mailFrom: String?
    /// The Maildir folder mails go to without `smtpURL`.
    public var mailDirectory: String = "/tmp/petspot-mail"
    /// DKIM: the selector and the PEM file of the key (RSA or Ed25519); both or neither.
    /// Whether the alert sender reads the upstream list again once per TTL when no request did, so a pet
    /// written straight to the upstream is alerted within the TTL on a quiet site (docs/alerts.md). Not a
    /// setting: the tests that count upstream calls on a clock moved by hand turn it off.
    public var alertsReadList = true
    public var dkimSelector: String?
    public var dkimKeyFile: String?

    /// The OpenStreetMap standard tile layer, the default tile server.
    public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    /// The defaults: 127.0.0.1:8080 on the embedded demo upstream.
    public init() {}

    /// The base URL used for absolute links.
    var effectivePublicBaseURL: String {
        if let publicBaseURL {
            let text = publicBaseURL.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        let wildcard = host == "0.0.0.0" || host == "::"
        let shownHost = wildcard ? "localhost" : (host.contains(":") ? "[\(host)]" : host)
        return "http://\(shownHost):\(port)"
    }
}

/// A setting with a bad value: names the setting and says what is allowed (never echoes secrets).
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The flag and environment variable, e.g. `--port / PORT`.
    public let setting: String
    /// What is wrong and what would be right.
    public let problem: String

    public var description: String { "invalid setting \(setting): \(problem)" }
}
