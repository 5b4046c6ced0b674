import Foundation
import MailDelivery
import Testing

/// A failure of the test setup itself (no Python, a helper that did not start), with a message that says what to do.
struct MailTestSetupError: Error, CustomStringConvertible {
    /// What went wrong and how to fix it.
    let description: String
}

/// Paths and processes the mail tests share: the repository, the mail venv's Python, temporary folders.
enum MailTestSupport {
    /// The repository root, found from this file (through the scratch package's symlinks too).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A script in scripts/mail/.
    static func script(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("scripts/mail").appendingPathComponent(name).path
    }

    /// The Python of the mail venv, from PETSPOT_MAIL_PYTHON; the tests fail, not skip, without it.
    static func python() throws -> String {
        guard let python = ProcessInfo.processInfo.environment["PETSPOT_MAIL_PYTHON"], !python.isEmpty else {
            throw MailTestSetupError(
                description: "PETSPOT_MAIL_PYTHON is not set: run scripts/test.sh, or "
                    + "export PETSPOT_MAIL_PYTHON=\"$(scripts/mail/venv.sh)/bin/python\" before swift test"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw MailTestSetupError(description: "PETSPOT_MAIL_PYTHON=\(python) is not an executable; run scripts/mail/venv.sh")
        }
        return python
    }

    /// A new empty folder under the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs a program to its end and gives its status and output (stdout, stderr).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Why read before waiting: a full pipe would block the child forever.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// Runs a scripts/mail/ Python script with the mail venv's Python; throws with its stderr when it fails.
    static func runScript(_ name: String, _ arguments: [String]) throws -> String {
        let result = try run(try python(), [script(name)] + arguments)
        guard result.status == 0 else {
            throw MailTestSetupError(description: "\(name) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// `openssl` with arguments (Debian's openssl): keys and certificates made by a tool independent of ours.
    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let result = try run("/usr/bin/openssl", arguments)
        guard result.status == 0 else { throw MailTestSetupError(description: "openssl \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }
}

/// scripts/mail/smtp-sink.py running as a child process on a port of its choosing; `stop()` ends it.
final class SMTPSink {
    /// The port it listens on (127.0.0.1).
    let port: Int
    /// Its Maildir, with envelopes/ beside new/.
    let maildir: URL
    private let process: Process

    /// One received message: the exact bytes and the envelope recorded beside them.
    struct Received {
        /// The message as the server got it after DATA.
        let bytes: [UInt8]
        /// The envelope sender.
        let mailFrom: String
        /// The envelope recipients.
        let rcptTos: [String]
        /// The connection's number, in accept order.
        let connection: Int
        /// Whether the connection was under TLS.
        let tls: Bool
        /// The login used, if any.
        let authLogin: String?
    }

    /// Starts the sink with extra options (`--tls-cert`, `--auth`, `--mode-file`…) and waits for its READY line.
    init(options: [String] = []) throws {
        maildir = try MailTestSupport.temporaryFolder().appendingPathComponent("sink")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try MailTestSupport.python())
        process.arguments = [MailTestSupport.script("smtp-sink.py"), "--port", "0", "--maildir", maildir.path] + options
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        self.process = process
        var line = Data()
        // Blocks until the sink has printed its line or died (EOF): no waiting on the clock.
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else {
            process.terminate()
            process.waitUntilExit()
            throw MailTestSetupError(description: "smtp-sink.py did not start (printed \(text.debugDescription)); see its stderr above")
        }
        self.port = port
    }

    deinit { stop() }

    /// Ends the sink (SIGTERM), waits for it, and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: maildir.deletingLastPathComponent())
    }

    /// How many connections it has accepted.
    func connectionCount() throws -> Int {
        let text = try String(contentsOf: maildir.appendingPathComponent("connections"), encoding: .utf8)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The messages received so far, oldest first.
    func received() throws -> [Received] {
        let names = try FileManager.default.contentsOfDirectory(atPath: maildir.appendingPathComponent("new").path).sorted()
        return try names.map { name in
            let bytes = try Data(contentsOf: maildir.appendingPathComponent("new").appendingPathComponent(name))
            let json = try Data(contentsOf: maildir.appendingPathComponent("envelopes").appendingPathComponent(name + ".json"))
            let envelope = try JSONDecoder().decode(Envelope.self, from: json)
            return Received(
                bytes: Array(bytes),
                mailFrom: envelope.mail_from,
                rcptTos: envelope.rcpt_tos,
                connection: envelope.connection,
                tls: envelope.tls,
                authLogin: envelope.auth_login
            )
        }
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct Envelope: Decodable {
        let mail_from: String
        let rcpt_tos: [String]
        let connection: Int
        let tls: Bool
        let auth_login: String?
    }
}

/// The reason of a `.temporary` outcome, nil for any other.
func temporaryReason(_ outcome: DeliveryOutcome) -> String? {
    if case .temporary(let reason) = outcome { return reason }
    return nil
}

/// A message like the product's alerts, with the parts the tests vary.
func sampleMessage(
    subject: String = "Zaginął pies — Łódź, źrebię żółć",
    text: String = "Nowe zgłoszenie w pobliżu.\n",
    html: String = "<p>Nowe zgłoszenie w pobliżu.</p>\n",
    id: String = "alert.3f2a9c@petspot.example"
) -> MailMessage {
    MailMessage(
        from: MailAddress("alerts@petspot.example", displayName: "PetSpot — alerty"),
        to: MailAddress("ola@example.org", displayName: "Ola Żółkiewska"),
        subject: subject,
        text: text,
        html: html,
        messageID: id,
        date: Date(timeIntervalSince1970: 1_796_000_000),
        extraHeaders: [
            ("List-Id", "PetSpot alerts <alerts.petspot.example>"),
            ("List-Unsubscribe", "<https://petspot.example/alerts/unsubscribe?token=k3J9xQ2mP7vR4tLw8zN1bY6cD5fH0gS3aE2uI9oT4>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
        ]
    )
}
