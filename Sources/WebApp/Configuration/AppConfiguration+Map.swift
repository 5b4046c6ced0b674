import Foundation

extension AppConfiguration {
    /// The settings of the map (docs/map.md): tile server, its cache, and where the map libraries are.
    static let mapSettings: [Setting] = [
        Setting(
            "tile-url",
            "PETSPOT_TILE_URL",
            "`\(openStreetMapTiles)` (the OpenStreetMap standard layer; a template with `{z}`, `{x}`, `{y}`)",
            "Map tile server URL template with {z}, {x} and {y}."
        ) { text, name, configuration in
            configuration.tileURLTemplate = try tileTemplate(text, setting: name)
        },
        Setting(
            "tile-contact",
            "PETSPOT_TILE_CONTACT",
            "the public base URL — set it in production: the tile server's operators read it in our User-Agent "
                + "`PetSpot-Web/1.0 (+CONTACT)`",
            "URL or e-mail address sent to the tile server in the User-Agent."
        ) { text, name, configuration in
            let contact = text.trimmingCharacters(in: .whitespaces)
            // A header value: printable ASCII only, so nothing can break the header line.
            guard !contact.isEmpty, contact.count <= 200, contact.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                throw ConfigurationError(setting: name, problem: "must be a URL or e-mail address in printable ASCII, at most 200 characters")
            }
            configuration.tileContact = contact
        },
        Setting(
            "tile-cache-mb",
            "PETSPOT_TILE_CACHE_MB",
            "`64` MiB of map tiles in memory (least recently used out first)",
            "Memory for map tiles, in MiB."
        ) { text, name, configuration in
            configuration.tileCacheMegabytes = try integer(text, in: 1...65536, setting: name)
        },
        Setting(
            "tile-cache-dir",
            "PETSPOT_TILE_CACHE_DIR",
            "none: map tiles are kept in memory only; a folder keeps them across restarts too (created when missing)",
            "Folder that keeps map tiles across restarts."
        ) { text, name, configuration in
            configuration.tileCacheDirectory = try folder(text, setting: name)
        },
        Setting(
            "tile-cache-disk-mb",
            "PETSPOT_TILE_CACHE_DISK_MB",
            "`1024` MiB in `--tile-cache-dir` (least recently used out first)",
            "Disk space for map tiles in --tile-cache-dir, in MiB."
        ) { text, name, configuration in
            configuration.tileCacheDiskMegabytes = try integer(text, in: 1...1_048_576, setting: name)
        },
        Setting(
            "javascript-dir",
            "PETSPOT_JAVASCRIPT_DIR",
            "`/usr/share/javascript` (Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` install there)",
            "Folder holding Debian's leaflet/ browser libraries."
        ) { text, name, configuration in
            configuration.javascriptDirectory = try folder(text, setting: name)
        },
    ]

    /// A tile URL template: an absolute http(s) URL holding `{z}`, `{x}` and `{y}`.
    static func tileTemplate(_ text: String, setting: String) throws(ConfigurationError) -> String {
        let template = text.trimmingCharacters(in: .whitespaces)
        let sample = template.replacingOccurrences(of: "{z}", with: "1").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0")
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains), let url = URL(string: sample),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false,
            url.fragment == nil
        else {
            // The value is not echoed: a tile URL can carry an API key.
            throw ConfigurationError(
                setting: setting,
                problem: "not an absolute http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png"
            )
        }
        return template
    }
}
