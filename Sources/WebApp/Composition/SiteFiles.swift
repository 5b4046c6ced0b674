import Foundation
import Logging
import PetDomain

/// What startup reads from disk before anything is served: the static files with the map libraries
/// (and their compressed forms) and the place names. Immutable, so one value can serve several
/// apps: tests that build hundreds of apps in one process load it once and pass it to
/// `PetSpotApp.build(configuration:files:…)` instead of parsing 4 MB of places and compressing
/// Leaflet each time; the executable builds one app and loads it once.
package struct SiteFiles: Sendable {
    /// `Public/` and the map libraries, served under `/static/`.
    let staticFiles: StaticFiles
    /// The place-name data (docs/place-names.md); nil when the setting is empty.
    let places: PlaceFinder?

    /// Reads the files the configuration names; a missing folder or a bad places file stops startup,
    /// naming the setting.
    package static func load(_ configuration: AppConfiguration, logger: Logger) throws -> SiteFiles {
        SiteFiles(
            staticFiles: try StaticFiles(directory: configuration.publicDirectory)
                .adding(MapLibraries.load(javascriptDirectory: configuration.javascriptDirectory)),
            places: try loadPlaces(configuration.placesFile, logger: logger)
        )
    }

    /// The settings the files are read from: apps whose configurations give the same key can share them.
    package static func key(_ configuration: AppConfiguration) -> [String] {
        [configuration.publicDirectory, configuration.javascriptDirectory, configuration.placesFile]
    }

    /// The place-name data, read once at startup; nil when the setting is empty. A missing or
    /// malformed file stops startup, naming the setting.
    static func loadPlaces(_ path: String, logger: Logger) throws -> PlaceFinder? {
        guard !path.isEmpty else { return nil }
        let setting = "--places-file / PETSPOT_PLACES_FILE"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError(setting: setting, problem: "cannot read '\(path)' (set it empty to run without place names)")
        }
        do {
            let started = ContinuousClock.now
            let finder = try PlaceFinder(tsv: String(decoding: data, as: UTF8.self))
            logger.info("place names loaded", metadata: ["places": "\(finder.count)", "elapsed": "\(ContinuousClock.now - started)"])
            return finder
        } catch {
            throw StartupError(setting: setting, problem: "'\(path)': \(error)")
        }
    }
}
