import ArgumentParser
import DemoUpstream
import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import PetSpotPostgres
import ServiceLifecycle
import UnixSignals
import WebApp

/// `petspot-web`: serve the site (default), check health, or run the demo upstream alone.
@main
struct PetSpotWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot-web",
        abstract: "PetSpot Web: server-rendered lost-and-found pet pages on libmicrohttpd.",
        subcommands: [Serve.self, HealthCheck.self, DemoUpstreamCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Serves the site until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the site (the default). Every flag also reads its environment variable; the flag wins.",
        // One line, not the 35 settings: they are listed below it.
        usage: "petspot-web [serve] [--<setting> <value> ...] [--settings-markdown | --key-settings-markdown]"
    )

    /// Every setting, as declared once in `AppConfiguration.settings`.
    @OptionGroup(title: "Settings") var settings: SettingOptions

    @Flag(help: "Print the settings table of docs/settings.md (made from the settings' declarations) and exit.")
    var settingsMarkdown = false

    @Flag(help: "Print the README's table of the key settings (made from the same declarations) and exit.")
    var keySettingsMarkdown = false

    func run() async throws {
        if settingsMarkdown || keySettingsMarkdown {
            print(settingsMarkdown ? AppConfiguration.settingsTable : AppConfiguration.keySettingsTable)
            return
        }
        ProcessMemory.setThresholds()
        ProcessMemory.trimPeriodically(every: 10)
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.resolve(flags: settings.given, environment: ProcessInfo.processInfo.environment)
        } catch {
            // `resolve` throws only `ConfigurationError`, which names the setting.
            throw ValidationError(error.description)
        }
        // An arena per server thread and a few for the rest, no more (docs/performance.md "Malloc
        // arenas"); applies to every arena made from here on, so before the server's threads start.
        ProcessMemory.limitArenas(Int32(configuration.threadCount + ProcessMemory.otherArenas))
        let logger = bootstrapLogging(configuration)
        // Several replicas share their write path through PostgreSQL (docs/replicas.md); without a URL
        // it stays in this process's memory, which is right for one replica only.
        var database: DatabaseURL?
        if let text = configuration.databaseURL {
            do { database = try DatabaseURL(text) } catch {
                throw ValidationError("--database-url / PETSPOT_DATABASE_URL: \(error)")
            }
        }
        let replica = Serve.replicaName()
        let store = database.map {
            PostgresWriteStore(
                url: $0,
                photoBytes: configuration.reportPhotoCacheMegabytes * 1_048_576,
                replica: replica,
                logger: logger.withComponent("write-store")
            )
        }
        // Alerts share the write store's pool and schema (docs/alerts-store.md); without a database
        // they live in this process's memory too.
        let alertStore = store.map { PostgresAlertStore(sharing: $0, logger: logger.withComponent("alert-store")) }
        // So do sightings and reunions (docs/sightings.md "The store").
        let sightingStore = store.map { PostgresSightingStore(sharing: $0, logger: logger.withComponent("sighting-store")) }
        let app: PetSpotApp
        do {
            app = try await PetSpotApp.build(
                configuration: configuration,
                logger: logger,
                embeddedUpstream: DemoUpstream.embedded,
                writeStore: store,
                alertStore: alertStore,
                sightingStore: sightingStore
            )
        } catch {
            logger.critical("startup failed", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        var services: [any Service] = []
        if let database, let store {
            logger.info("write store: PostgreSQL, shared by every replica", metadata: ["database": "\(database.redacted)", "replica": "\(replica)"])
            services.append(store)
            services.append(
                ChangeFeed(
                    url: database,
                    replica: replica,
                    logger: logger.withComponent("change-feed"),
                    onConnected: { app.changeFeed(connected: $0) },
                    onOutbox: { app.alertsQueued() },
                    onChange: { _ in await app.dataChanged() }
                )
            )
        } else {
            logger.notice("write store: this process's memory — right for one replica only (set --database-url for several)")
            logger.notice("alert subscriptions and outbox: this process's memory — one replica only, forgotten at a restart")
        }
        services.append(app)
        // swift-service-lifecycle: SIGTERM or SIGINT shuts the group down gracefully; the app then
        // stops accepting, finishes what is in flight and stops (docs/transport.md, shutdown).
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            logger.critical("startup failed", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        logger.info("stopped")
    }
}

extension Serve {
    /// This replica's name in the change feed and in `pg_stat_activity`: host, process and a random part.
    static func replicaName() -> String {
        let host = ProcessInfo.processInfo.hostName.prefix(40)
        return "\(host)-\(ProcessInfo.processInfo.processIdentifier)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}

extension Logger {
    /// A copy whose lines name the component.
    func withComponent(_ name: String) -> Logger {
        var copy = self
        copy[metadataKey: "component"] = "\(name)"
        return copy
    }
}

/// `petspot-web healthcheck`: exit 0 when the local server's /healthz answers 200 (container HEALTHCHECK).
struct HealthCheck: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "healthcheck", abstract: "Exit 0 when http://127.0.0.1:PORT/healthz answers 200.")

    @Option(help: "Port of the local server. [env: PORT] (default: 8080)") var port: Int?

    func run() throws {
        let resolved = port ?? ProcessInfo.processInfo.environment["PORT"].flatMap(Int.init) ?? 8080
        guard LoopbackProbe.status(port: resolved, path: "/healthz") == 200 else { throw ExitCode(1) }
    }
}

/// `petspot-web demo-upstream`: the embedded sample backend alone, for trying the site against "another" backend.
struct DemoUpstreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo-upstream", abstract: "Run the embedded demo backend alone.")

    @Option(help: "Address to bind.") var host: String = "127.0.0.1"
    @Option(help: "Port to bind.") var port: Int = 3000
    @Flag(help: "Test hooks: GET /__demo/counts and /__demo/create-delay?ms=N (docs/demo-upstream-writes.md).")
    var testHooks = false
    @Option(help: "With --test-hooks: milliseconds every create waits before it is handled (0-30000).")
    var createDelayMs: Int = 0

    func run() async throws {
        var logger = Logger(label: "demo-upstream")
        logger.logLevel = .info
        guard testHooks || createDelayMs == 0 else { throw ValidationError("--create-delay-ms needs --test-hooks") }
        let backend = DemoBackend(hooks: testHooks ? DemoTestHooks(createDelayMilliseconds: createDelayMs) : nil)
        let server = try DemoUpstream.start(host: host, port: port, logger: logger, backend: backend)
        logger.info("demo upstream listening", metadata: ["url": "http://\(host):\(server.port)"])
        let group = ServiceGroup(
            configuration: .init(
                services: [StoppingServer(server: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}

/// A started `HTTPServer` as a service: stops (finishing what is in flight) at graceful shutdown.
struct StoppingServer: Service {
    let server: HTTPServer

    func run() async throws {
        try? await gracefulShutdown()
        await server.stop()
    }
}
