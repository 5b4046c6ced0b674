import ArgumentParser
import DemoUpstream
import Foundation
import HTTPTypes
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
        discussion: "Settings (flag <value>, or --flag=value):\n"
            + AppConfiguration.settings.map { setting in
                "  --\(setting.flag) <value>\n      \(setting.help) [env: \(setting.environment)] (default: "
                    + setting.documentedDefault.replacingOccurrences(of: "`", with: "") + ")"
            }.joined(separator: "\n")
    )

    /// The settings as given (`--flag value` or `--flag=value`), read against
    /// `AppConfiguration.settings`: each setting is declared once there, not here again.
    @Argument(parsing: .allUnrecognized, help: "Settings; see below.") var settingArguments: [String] = []

    /// The flags given, by name; unknown ones and missing values are usage errors.
    private func givenFlags() throws -> [String: String?] {
        let known = Set(AppConfiguration.settings.map(\.flag))
        var flags: [String: String?] = [:]
        var index = 0
        while index < settingArguments.count {
            let argument = settingArguments[index]
            guard argument.hasPrefix("--") else { throw ValidationError("unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard known.contains(name) else { throw ValidationError("unknown option '--\(name)' (see --help)") }
            if value == nil {
                index += 1
                guard index < settingArguments.count else { throw ValidationError("missing value for '--\(name)'") }
                value = settingArguments[index]
            }
            flags[name] = value
            index += 1
        }
        return flags
    }

    func run() async throws {
        // A few malloc arenas keep the resident size down (docs/performance.md "Memory"); applies to every arena made from here on.
        ProcessMemory.limitArenas(2)
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.resolve(flags: try givenFlags(), environment: ProcessInfo.processInfo.environment)
        } catch let error as ConfigurationError {
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
        // stops accepting, finishes what is in flight and stops (docs/transport.md, shutdown).
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
