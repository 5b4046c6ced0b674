import Foundation

extension AppConfiguration {
    /// The settings of the map (docs/map.md): tile server, its cache, and where the map libraries are.
    static let mapSettings: [Setting] = [
        Setting(
            "tile-url",
            "PETSPOT_TILE_URL",
            \.tileURLTemplate,
            SettingKind(valueName: "url-template", show: { $0 }) { text, name in try tileTemplate(text, setting: name) },
            help: "Map tile server URL template with {z}, {x} and {y}.",
            about: " (the OpenStreetMap standard layer; a template with `{z}`, `{x}`, `{y}`)"
        ),
        Setting(
            "tile-contact",
            "PETSPOT_TILE_CONTACT",
            \.tileContact,
            SettingKind<String>(valueName: "contact", show: { $0 }) { text, name in
                let contact = text.trimmingCharacters(in: .whitespaces)
                // A header value: printable ASCII only, so nothing can break the header line.
                guard !contact.isEmpty, contact.count <= 200, contact.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                    throw ConfigurationError(setting: name, problem: "must be a URL or e-mail address in printable ASCII, at most 200 characters")
                }
                return contact
            }.optional,
            help: "URL or e-mail address sent to the tile server in the User-Agent.",
            about: "the public base URL — set it in production: the tile server's operators read it in our User-Agent "
                + "`PetSpot-Web/1.0 (+CONTACT)`"
        ),
        Setting(
            "tile-cache-mb",
            "PETSPOT_TILE_CACHE_MB",
            \.tileCacheMegabytes,
            .megabytes(1...65536),
            help: "Memory for map tiles, in MiB.",
            about: " MiB of map tiles in memory (least recently used out first)"
        ),
        Setting(
            "tile-cache-dir",
            "PETSPOT_TILE_CACHE_DIR",
            \.tileCacheDirectory,
            SettingKind<String>.folder.optional,
            help: "Folder that keeps map tiles across restarts.",
            about: "none: map tiles are kept in memory only; a folder keeps them across restarts too (created when missing)"
        ),
        Setting(
            "tile-cache-disk-mb",
            "PETSPOT_TILE_CACHE_DISK_MB",
            \.tileCacheDiskMegabytes,
            .megabytes(1...1_048_576),
            help: "Disk space for map tiles in --tile-cache-dir, in MiB.",
            about: " MiB in `--tile-cache-dir` (least recently used out first)"
        ),
        Setting(
            "javascript-dir",
            "PETSPOT_JAVASCRIPT_DIR",
            \.javascriptDirectory,
            .folder,
            help: "Folder holding Debian's leaflet/ browser libraries.",
            about: " (Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` install there)"
        ),
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
