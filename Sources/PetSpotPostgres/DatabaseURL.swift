import Foundation
import NIOSSL
import PostgresNIO

/// `--database-url` read into postgres-nio's configurations (docs/replicas.md "Settings"):
/// `postgres://user:password@host:port/database` (TLS when the server offers it; `?sslmode=disable` or
/// `require` to say otherwise), or a unix socket as `postgres://user@/database?host=/socket/folder`.
public struct DatabaseURL: Sendable {
    public let username: String
    let password: String?
    public let database: String
    public let host: String?
    public let port: Int
    /// The socket file, for a `host=` folder.
    public let socketPath: String?
    let tlsMode: String

    public init(_ text: String) throws {
        guard let parts = URLComponents(string: text), ["postgres", "postgresql"].contains(parts.scheme ?? "") else {
            throw DatabaseURLError("must look like postgres://user:password@host:port/database")
        }
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        username = parts.user.flatMap { $0.removingPercentEncoding ?? $0 } ?? "postgres"
        password = parts.password.flatMap { $0.removingPercentEncoding ?? $0 }
        database = String(parts.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty else { throw DatabaseURLError("names no database (…/database)") }
        port = parts.port ?? Int(query["port"] ?? "") ?? 5432
        if let folder = query["host"], folder.hasPrefix("/") {
            host = nil
            socketPath = folder + "/.s.PGSQL.\(port)"
        } else if let name = parts.host, !name.isEmpty {
            host = name
            socketPath = nil
        } else {
            throw DatabaseURLError("names no host (…@host:port/… or ?host=/socket/folder)")
        }
        tlsMode = query["sslmode"] ?? "prefer"
        guard ["disable", "prefer", "require", "allow"].contains(tlsMode) else {
            throw DatabaseURLError("sslmode must be disable, prefer or require")
        }
    }

    /// Where it points, without the password (for logs).
    public var redacted: String {
        "postgres://\(username)@\(host.map { "\($0):\(port)" } ?? socketPath ?? "")/\(database)"
    }

    private var tls: PostgresClient.Configuration.TLS {
        switch tlsMode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
    }

    /// The pool's configuration: small, with our deadlines (docs/replicas.md "Pool and sizing").
    func clientConfiguration(applicationName: String) -> PostgresClient.Configuration {
        var configuration =
            if let socketPath {
                PostgresClient.Configuration(unixSocketPath: socketPath, username: username, password: password, database: database)
            } else {
                PostgresClient.Configuration(
                    host: host ?? "localhost",
                    port: port,
                    username: username,
                    password: password,
                    database: database,
                    tls: tls
                )
            }
        configuration.options.minimumConnections = 1
        configuration.options.maximumConnections = 4
        configuration.options.connectTimeout = .seconds(2)
        configuration.options.additionalStartupParameters = DatabaseURL.startupParameters(applicationName)
        return configuration
    }

    /// The listener's own connection (LISTEN works only on a connection of its own, not through the pool).
    func connectionConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: username, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS =
                switch tlsMode {
                case "disable": .disable
                case "require": .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                default: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            configuration = .init(host: host ?? "localhost", port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(2)
        configuration.options.additionalStartupParameters = DatabaseURL.startupParameters(applicationName)
        return configuration
    }

    /// Sent in the startup packet: a slow server ends our statements itself, and names us in pg_stat_activity.
    static func startupParameters(_ applicationName: String) -> [(String, String)] {
        [("statement_timeout", "2000"), ("lock_timeout", "1000"), ("application_name", applicationName)]
    }
}

/// A `--database-url` that cannot be used, and why.
public struct DatabaseURLError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
