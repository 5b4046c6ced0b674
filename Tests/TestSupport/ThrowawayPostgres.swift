import Foundation
import Synchronization

/// A real PostgreSQL for the tests that need one (docs/replicas.md "Tests"): Debian's `postgresql`
/// server, `initdb --no-sync` into a temporary folder and `postgres` started as a child with a unix
/// socket only, fsync off — about a second. `initdb` refuses to run as root, so as root both run as
/// the `postgres` user through `setpriv`, which execs in place: the child is the postmaster itself
/// (`runuser` would stay between as a parent, and stops itself when its child is stopped, so a hung
/// server could never be resumed through it). Not `pg_ctl`: a postmaster it started and that was
/// killed with -9 leaves its lock file, and a restart then fails; a child started again recovers.
public final class ThrowawayPostgres: Sendable {
    /// The folder holding the data directory and the socket.
    public let folder: String
    private let server = Mutex<Process?>(nil)

    /// `postgres://postgres@/postgres?host=FOLDER`: what `--database-url` takes.
    public var url: String { "postgres://postgres@/postgres?host=\(folder)" }

    /// The cluster shared by one test process (started on first use, removed at exit).
    public static let shared: ThrowawayPostgres? = {
        let cluster = try? ThrowawayPostgres()
        // A test process that ends leaves no server behind.
        atexit { ThrowawayPostgres.shared?.remove() }
        return cluster
    }()

    public init() throws {
        guard let bin = ThrowawayPostgres.binFolder() else { throw Failure("PostgreSQL's server is not installed (Debian postgresql)") }
        folder = NSTemporaryDirectory() + "petspot-pg-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try ThrowawayPostgres.run("/bin/chown", ["postgres:postgres", folder]) }
        try ThrowawayPostgres.run(
            ThrowawayPostgres.asPostgres(bin + "/initdb"),
            ThrowawayPostgres.asPostgresArguments(bin + "/initdb", ["-D", folder + "/data", "--no-sync", "-U", "postgres", "-A", "trust"])
        )
        try start()
    }

    /// Starts (or starts again, after `kill`) the server in the same folder, and waits until it answers.
    public func start() throws {
        guard let bin = ThrowawayPostgres.binFolder() else { throw Failure("no PostgreSQL") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ThrowawayPostgres.asPostgres(bin + "/postgres"))
        process.arguments = ThrowawayPostgres.asPostgresArguments(
            bin + "/postgres",
            ["-D", folder + "/data", "-k", folder, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=200"]
        )
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        server.withLock { $0 = process }
        for _ in 0..<200 {
            if (try? ThrowawayPostgres.run(bin + "/pg_isready", ["-q", "-h", folder, "-U", "postgres"])) != nil { return }
            usleep(50_000)
        }
        throw Failure("PostgreSQL did not start in \(folder)")
    }

    /// The postmaster's process id (from its pid file).
    public var postmasterPID: pid_t? {
        guard let text = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first
        else { return nil }
        return pid_t(first.trimmingCharacters(in: .whitespaces))
    }

    /// `kill -9` of the postmaster and every backend (a crash), waiting until they are gone.
    public func kill() {
        guard let pid = postmasterPID else { return }
        // The backends are the postmaster's children: all of them at once, like a crash of the machine
        // (stopped ones too: SIGKILL ends a stopped process).
        _ = try? ThrowawayPostgres.run("/usr/bin/pkill", ["-9", "-P", String(pid)])
        Foundation.kill(pid, SIGKILL)
        server.withLock { $0?.waitUntilExit() }
    }

    /// `SIGSTOP` (a hung server) and `SIGCONT` to every process of the cluster.
    public func pause() { signalAll(SIGSTOP) }
    public func resume() { signalAll(SIGCONT) }

    private func signalAll(_ signal: Int32) {
        guard let pid = postmasterPID else { return }
        // The postmaster first, so it forks no new backend after its children were signalled.
        Foundation.kill(pid, signal)
        _ = try? ThrowawayPostgres.run("/usr/bin/pkill", ["-\(signal)", "-P", String(pid)])
    }

    /// Runs SQL with psql and returns its output (unaligned, tuples only).
    public func sql(_ statement: String) throws -> String {
        guard let bin = ThrowawayPostgres.binFolder() else { throw Failure("no PostgreSQL") }
        return try ThrowawayPostgres.run(bin + "/psql", ["-h", folder, "-U", "postgres", "-d", "postgres", "-At", "-c", statement])
    }

    /// Stops the server and removes the folder.
    public func remove() {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func binFolder() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().last.map { "\(root)/\($0)/bin" }
    }

    /// As root the server runs as `postgres` (setpriv); otherwise as the caller.
    static func asPostgres(_ executable: String) -> String { getuid() == 0 ? "/usr/bin/setpriv" : executable }
    static func asPostgresArguments(_ executable: String, _ arguments: [String]) -> [String] {
        getuid() == 0 ? ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", executable] + arguments : arguments
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failure("\(executable) \(arguments.joined(separator: " ")): \(text)") }
        return text
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
