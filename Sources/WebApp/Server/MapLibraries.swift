import Foundation

/// Leaflet and Leaflet.markercluster as Debian installs them (`libjs-leaflet`,
/// `libjs-leaflet.markercluster`, under `/usr/share/javascript/leaflet/`), read once at startup
/// and served by us under `/static/vendor/leaflet/` (no CDN, so the CSP keeps `'self'`).
/// A missing file stops startup with a message naming its package, rather than a blank map.
enum MapLibraries {
    /// The files served, by the Debian package that installs them, relative to `leaflet/`.
    static let packages: [(package: String, files: [String])] = [
        (
            "libjs-leaflet",
            [
                "leaflet.min.js", "leaflet.css", "images/layers.png", "images/layers-2x.png",
                "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png",
            ]
        ),
        ("libjs-leaflet.markercluster", ["leaflet.markercluster.min.js", "MarkerCluster.css", "MarkerCluster.Default.css"]),
    ]

    /// Where they are served below `/static/`.
    static let folder = "vendor/leaflet"

    /// Every file, keyed by its path below `/static/`; throws naming the missing package.
    static func load(javascriptDirectory: String) throws(StartupError) -> [String: StaticFiles.Asset] {
        let root = URL(fileURLWithPath: javascriptDirectory).appendingPathComponent("leaflet")
        var assets: [String: StaticFiles.Asset] = [:]
        for (package, files) in packages {
            for file in files {
                guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else {
                    throw StartupError(
                        setting: "--javascript-dir / PETSPOT_JAVASCRIPT_DIR",
                        problem: "\(root.path)/\(file) is missing: install the Debian package \(package) "
                            + "(apt-get install \(package)), or point the setting at a folder holding leaflet/"
                    )
                }
                assets["\(folder)/\(file)"] = StaticFiles.Asset(body: [UInt8](data), name: file)
            }
        }
        return assets
    }
}
