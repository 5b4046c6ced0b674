import HTTPTypes
import Foundation
import TestSupport
import Testing

/// The built `petspot-web` binary, next to the test bundle in the build folder.
private func executableURL() throws -> URL {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidate = folder.appendingPathComponent("petspot-web")
    try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "build petspot-web first (swift build --build-tests)")
    return candidate
}

/// Runs the binary to completion (bounded by `timeout`), returning exit status and combined output.
private func run(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)) async throws -> (Int32, String) {
    let process = Process()
    process.executableURL = try executableURL()
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while process.isRunning && clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, output)
}

// One launch at a time: a Foundation Process.run crashed once (memcpy on a bad pointer) while
// several tests launched processes at once.
@Suite("petspot-web executable", .serialized)
struct ExecutableTests {
    @Test func a_bad_setting_stops_startup_with_a_message_naming_it() async throws {
        let (status, output) = try await run(["--port", "70000"])
        #expect(status != 0)
        #expect(output.contains("--port / PORT"))
        let (envStatus, envOutput) = try await run([], environment: ["PETSPOT_CACHE_TTL": "soon"])
        #expect(envStatus != 0)
        #expect(envOutput.contains("--cache-ttl / PETSPOT_CACHE_TTL"))
    }

    @Test func help_lists_the_flags_and_their_environment_variables() async throws {
        let (status, output) = try await run(["serve", "--help"])
        #expect(status == 0)
        for name in ["--upstream", "PETSPOT_UPSTREAM_URL", "--port", "PORT", "--public-base-url", "PETSPOT_CACHE_TTL"] {
            #expect(output.contains(name), "\(name)")
        }
    }

    @Test func sigterm_stops_the_server_gracefully_with_exit_code_0() async throws {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = ["--port", "0", "--log-level", "info"]
        process.currentDirectoryURL = repositoryRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The log line of "PetSpot Web listening" carries url=http://127.0.0.1:PORT.
        var collected = ""
        var port: Int?
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while port == nil && clock.now < deadline {
            let chunk = pipe.fileHandleForReading.availableData
            collected += String(decoding: chunk, as: UTF8.self)
            for line in collected.split(separator: "\n") where line.contains("PetSpot Web listening") {
                if let range = line.range(of: #"url=http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                    port = Int(line[range].split(separator: ":").last ?? "")
                }
            }
        }
        let bound = try #require(port, "no listening line in: \(collected)")
        let base = try #require(URL(string: "http://127.0.0.1:\(bound)"))
        #expect(try await fetch(base.appendingPathComponent("healthz")).status == 200)
        #expect(try await fetch(base.appendingPathComponent("pets")).status == 200)
        kill(process.processIdentifier, SIGTERM)
        let stopDeadline = clock.now + .seconds(10)
        while process.isRunning && clock.now < stopDeadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
