import DemoUpstream
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import ReportStore
import Sightings
import Synchronization
import TestSupport
import Testing
import WebApp

/// The repository root, found from this file's path (Tests/WebAppTests/TestApp.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The real PetSpot Web app on 127.0.0.1 port 0, in front of a stub upstream on port 0.
struct TestApp: Sendable {
    let app: PetSpotApp
    let stub: StubUpstream
    let base: URL
    /// The app's monotonic clock: TTL tests advance it instead of sleeping.
    let clock: ManualClock

    /// A URL on the app.
    func url(_ pathAndQuery: String) throws -> URL { try TestSupport.url(base, pathAndQuery) }

    /// GET (or another method) on the app.
    func get(_ pathAndQuery: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Fetched {
        try await fetch(try url(pathAndQuery), method: method, headers: headers)
    }
}

/// Reads a fixture file of Tests/WebAppTests/Fixtures as text.
func fixture(_ name: String) throws -> String {
    let file = repositoryRoot.appendingPathComponent("Tests/WebAppTests/Fixtures/\(name)")
    return try String(contentsOf: file, encoding: .utf8)
}

/// Starts a stub upstream serving `listJSON`, the app in front of it (configured by `configure`),
/// runs `body`, and always stops both.
@discardableResult
func withApp<T>(
    listJSON: String = #"{"data":[]}"#,
    configure: (inout AppConfiguration) -> Void = { _ in },
    logs: LogCapture? = nil,
    startDate: Date = Date(),
    writeStore: (any WriteStore)? = nil,
    sightingStore: (any SightingStore)? = nil,
    _ body: (TestApp) async throws -> T
) async throws -> T {
    let stub = try StubUpstream.start()
    stub.setList(listJSON)
    var configuration = AppConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.upstreamURL = URL(string: stub.baseURL)
    configuration.publicBaseURL = URL(string: "https://petspot.example")
    configuration.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
    configuration.templatesDirectory = repositoryRoot.appendingPathComponent("Templates").path
    configuration.placesFile = TestPlaces.file
    configuration.upstreamTimeoutSeconds = 1
    // Never the real tile server: a loopback port nothing listens on, unless a test sets its stub's.
    configuration.tileURLTemplate = "http://127.0.0.1:9/{z}/{x}/{y}.png"
    // Each app's alert mails in a folder of its own (docs/alerts.md "Delivery").
    configuration.mailDirectory = NSTemporaryDirectory() + "petspot-test-mail-" + UUID().uuidString.prefix(8)
    // The tests count upstream calls on a clock they move by hand: no list read but theirs.
    configuration.alertsReadList = false
    // And they read the page right after moving it past the TTL, expecting what that page's refresh fetched:
    // the page waits for it, as with no window. RefreshWindowTests sets the window it checks.
    configuration.refreshWindowSeconds = 0
    configure(&configuration)
    var logger = logs.map { capture in Logger(label: "webapp-test", factory: { _ in capture }) } ?? Logger(label: "webapp-test")
    logger.logLevel = logs == nil ? .critical : .info
    let app: PetSpotApp
    let clock = ManualClock()
    do {
        app = try await PetSpotApp.build(
            configuration: configuration,
            files: TestSiteFiles.files(for: configuration),
            logger: logger,
            embeddedUpstream: DemoUpstream.embedded,
            writeStore: writeStore,
            sightingStore: sightingStore,
            now: clock.reading,
            startDate: startDate
        )
        try app.start()
    } catch {
        await stub.stop()
        throw error
    }
    let testApp = TestApp(app: app, stub: stub, base: try #require(URL(string: "http://127.0.0.1:\(app.port)")), clock: clock)
    do {
        let result = try await body(testApp)
        await app.stop()
        await stub.stop()
        return result
    } catch {
        await app.stop()
        await stub.stop()
        throw error
    }
}

/// A log handler that keeps every line (message and metadata as text), for tests of what is logged.
final class LogCapture: LogHandler, @unchecked Sendable {
    // Safety: `lines` is only touched under `lock`; the value-type LogHandler requirements below
    // are set once by the Logger before use.
    private let lock = NSLock()
    private var captured: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    /// Every line logged so far.
    var lines: [String] { lock.withLock { captured } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lock.withLock { captured.append("\(event.level) \(event.message) \(fields)") }
    }
}

/// The committed place-name data (`TestSiteFiles` keeps it parsed, so the tests' apps share one copy).
enum TestPlaces {
    static let file = repositoryRoot.appendingPathComponent("Data/places.tsv").path
}

/// The site files (static files with their compressed forms, place names) loaded once per set of
/// folders for every app the tests build: parsing 4 MB of places and compressing Leaflet at Brotli 11
/// take seconds, and the tests build hundreds of apps.
enum TestSiteFiles {
    private static let loaded = Mutex<[[String]: SiteFiles]>([:])

    static func files(for configuration: AppConfiguration) throws -> SiteFiles {
        let key = SiteFiles.key(configuration)
        if let files = loaded.withLock({ $0[key] }) { return files }
        let files = try SiteFiles.load(configuration, logger: Logger(label: "webapp-test"))
        loaded.withLock { $0[key] = files }
        return files
    }
}
