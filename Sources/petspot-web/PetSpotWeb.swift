import ArgumentParser
import DemoUpstream
import Foundation
import Logging
import MicroHTTP
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
        discussion: "Environment: " + AppConfiguration.environmentNames.sorted { $0.key < $1.key }
            .map { "--\($0.key) ← \($0.value)" }.joined(separator: ", ")
    )

    @Option(help: "Address to bind, e.g. 127.0.0.1 or 0.0.0.0. [env: HOST] (default: 127.0.0.1)") var host: String?
    @Option(help: "Port to bind; 0 picks a free one. [env: PORT] (default: 8080)") var port: String?
    @Option(help: "PetSpot backend base URL; without it the embedded demo upstream runs. [env: PETSPOT_UPSTREAM_URL]") var upstream: String?
    @Option(name: .customLong("public-base-url"), help: "Absolute base URL for share links. [env: PETSPOT_PUBLIC_BASE_URL]") var publicBaseURL: String?
    @Option(name: .customLong("upstream-timeout"), help: "Seconds for one upstream call. [env: PETSPOT_UPSTREAM_TIMEOUT] (default: 5)") var upstreamTimeout: String?
    @Option(name: .customLong("cache-ttl"), help: "Seconds a validated result stays fresh. [env: PETSPOT_CACHE_TTL] (default: 30)") var cacheTTL: String?
    @Option(name: .customLong("stale-max"), help: "Seconds a cached copy may be served while the upstream fails. [env: PETSPOT_STALE_MAX] (default: 600)") var staleMax: String?
    @Option(name: .customLong("log-level"), help: "trace|debug|info|notice|warning|error|critical. [env: PETSPOT_LOG_LEVEL] (default: info)") var logLevel: String?
    @Option(name: .customLong("log-format"), help: "text|json. [env: PETSPOT_LOG_FORMAT] (default: text)") var logFormat: String?
    @Option(name: .customLong("public-dir"), help: "Static files folder. [env: PETSPOT_PUBLIC_DIR] (default: Public)") var publicDir: String?
    @Option(name: .customLong("templates-dir"), help: "Templates folder. [env: PETSPOT_TEMPLATES_DIR] (default: Templates)") var templatesDir: String?
    @Option(help: "Server threads. [env: PETSPOT_THREADS] (default: 4)") var threads: String?
    @Option(name: .customLong("upstream-max-body-mb"), help: "Largest upstream JSON body in MiB (the whole list is one body). [env: PETSPOT_UPSTREAM_MAX_BODY_MB] (default: 64)") var upstreamMaxBody: String?
    @Option(name: .customLong("page-cache-mb"), help: "Memory for rendered pages and API bodies, in MiB. [env: PETSPOT_PAGE_CACHE_MB] (default: 32)") var pageCache: String?
    @Option(name: .customLong("max-details-calls"), help: "Most upstream details calls at once. [env: PETSPOT_MAX_DETAILS_CALLS] (default: 8)") var maxDetailsCalls: String?

    func run() async throws {
        // A few malloc arenas keep the resident size down (issue 11); applies to every arena made from here on.
        ProcessMemory.limitArenas(2)
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.resolve(flags: [
                "host": host, "port": port, "upstream": upstream, "public-base-url": publicBaseURL,
                "upstream-timeout": upstreamTimeout, "cache-ttl": cacheTTL, "stale-max": staleMax,
                "log-level": logLevel, "log-format": logFormat, "public-dir": publicDir,
                "templates-dir": templatesDir, "threads": threads, "upstream-max-body-mb": upstreamMaxBody,
                "page-cache-mb": pageCache, "max-details-calls": maxDetailsCalls,
            ], environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        let logger = bootstrapLogging(configuration)
        let app: PetSpotApp
        do {
            app = try await PetSpotApp.build(configuration: configuration, logger: logger, embeddedUpstream: DemoUpstream.embedded)
        } catch {
            logger.critical("startup failed", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        // swift-service-lifecycle: SIGTERM or SIGINT shuts the group down gracefully; the app then
        // stops accepting, finishes what is in flight and stops (platform-notes "Shutdown").
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            logger.critical("startup failed", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        logger.info("stopped")
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

    func run() async throws {
        var logger = Logger(label: "demo-upstream")
        logger.logLevel = .info
        let server = try DemoUpstream.start(host: host, port: port, logger: logger)
        logger.info("demo upstream listening", metadata: ["url": "http://\(host):\(server.port)"])
        let group = ServiceGroup(configuration: .init(services: [StoppingServer(server: server)],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
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
