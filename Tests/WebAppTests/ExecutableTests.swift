import Foundation
import HTTPTypes
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

    @Test func help_shows_each_settings_range_value_name_and_default() async throws {
        let (status, output) = try await run(["serve", "--help"])
        #expect(status == 0)
        // Single words and the option column only: ArgumentParser wraps the help text at spaces.
        for text in ["--port <number>", "0-65535", "--cache-ttl <seconds>", "0.1-120", "trace|debug|info|notice|warning|error|critical"] {
            #expect(output.contains(text), "\(text)")
        }
    }

    /// docs/settings.md's table and the README's key settings are what the binary prints (scripts/settings-table.sh writes them).
    @Test func the_settings_markdown_the_binary_prints_is_the_committed_table() async throws {
        let (status, output) = try await run(["--settings-markdown"])
        #expect(status == 0)
        let document = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        #expect(output.hasPrefix("| flag | environment | default |\n"))
        #expect(document.contains(output), "run scripts/settings-table.sh")
        let (keyStatus, keyOutput) = try await run(["--key-settings-markdown"])
        #expect(keyStatus == 0)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(keyOutput.contains("| `--database-url` | `PETSPOT_DATABASE_URL` |"))
        #expect(readme.contains(keyOutput), "run scripts/settings-table.sh")
    }

    @Test func a_flag_value_that_starts_with_a_dash_is_a_bad_value_not_a_missing_one() async throws {
        let (status, output) = try await run(["--stale-max", "-1"])
        #expect(status != 0)
        #expect(output.contains("--stale-max / PETSPOT_STALE_MAX"))
        #expect(output.contains("'-1' is not a number of seconds"))
    }

    @Test func sigterm_stops_the_server_gracefully_with_exit_code_0() async throws {
        let (process, base) = try await launchServer(["--port", "0", "--log-level", "info"])
        defer { if process.isRunning { process.terminate() } }
        #expect(try await fetch(base.appendingPathComponent("healthz")).status == 200)
        #expect(try await fetch(base.appendingPathComponent("pets")).status == 200)
        kill(process.processIdentifier, SIGTERM)
        try await waitForExit(process)
        #expect(!process.isRunning)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// Graceful shutdown: SIGTERM while answers are in flight finishes every one of them whole,
    /// closes idle connections, and exits 0.
    @Test func sigterm_under_load_finishes_the_answers_in_flight_closes_idle_connections_and_exits_0() async throws {
        let stub = try StubUpstream.start()
        defer { Task { await stub.stop() } }
        // Ids outside the list snapshot: their pages need the (slow) details endpoint.
        let ids = (1...8).map { "slow-\($0)" }
        stub.setList(PageJSON.list([PageJSON.item("listed", name: "Listed")]))
        for id in ids { stub.setDetails(id: id, json: PageJSON.text(PageJSON.item(id, name: "Pet \(id)"))) }
        let (process, base) = try await launchServer([
            "--port", "0", "--log-level", "info", "--upstream", stub.baseURL,
            "--upstream-timeout", "5",
        ])
        defer { if process.isRunning { process.terminate() } }
        #expect(try await fetch(base.appendingPathComponent("pets")).status == 200)
        let port = try #require(base.port)
        // An idle connection, open before the signal.
        let idle = try #require(RawHTTP.openIdle(port: port))
        defer { close(idle) }

        // Eight details pages, each waiting 1.5 s on the upstream, in flight when SIGTERM arrives.
        stub.setFault(.slow(.milliseconds(1_500)))
        let before = stub.requestCount()
        let answers = Task {
            try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for id in ids {
                    group.addTask {
                        let answer = try await fetch(base.appendingPathComponent("pets").appendingPathComponent(id))
                        return (answer.status, answer.text.contains("Pet \(id)") && answer.text.contains("</html>"))
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
        }
        let clock = ContinuousClock()
        let bound = clock.now + .seconds(20)
        while stub.requestCount() - before < ids.count && clock.now < bound { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stub.requestCount() - before == ids.count, "all eight upstream calls are in flight")
        kill(process.processIdentifier, SIGTERM)

        let finished = try await answers.value
        #expect(finished.count == ids.count)
        #expect(finished.allSatisfy { $0.0 == 200 && $0.1 }, "every answer in flight arrived whole: \(finished)")
        try await waitForExit(process)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        // The idle connection was closed by the server (end of stream, not a time-out).
        var byte: UInt8 = 0
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(idle, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(recv(idle, &byte, 1, 0) == 0)
    }
}

/// Starts the binary and waits for its "PetSpot Web listening" log line (which carries
/// `url=http://127.0.0.1:PORT`); returns the running process and its base URL.
private func launchServer(_ arguments: [String]) async throws -> (Process, URL) {
    let process = Process()
    process.executableURL = try executableURL()
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    var collected = ""
    var port: Int?
    let clock = ContinuousClock()
    // A bound on a hang, not a speed check: under ThreadSanitizer on a busy machine loading the place
    // names alone took 17 s (scripts/sanitizers.sh).
    let deadline = clock.now + .seconds(60)
    while port == nil && clock.now < deadline && process.isRunning {
        let chunk = pipe.fileHandleForReading.availableData
        collected += String(decoding: chunk, as: UTF8.self)
        for line in collected.split(separator: "\n") where line.contains("PetSpot Web listening") {
            if let range = line.range(of: #"url=http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                port = Int(line[range].split(separator: ":").last ?? "")
            }
        }
    }
    guard let port, let base = URL(string: "http://127.0.0.1:\(port)") else {
        if process.isRunning { process.terminate() }
        throw LaunchFailure(output: collected)
    }
    // Keep draining the log so the server never blocks on a full pipe.
    pipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    return (process, base)
}

private struct LaunchFailure: Error, CustomStringConvertible {
    let output: String
    var description: String { "no listening line in: \(output)" }
}

/// Waits until `process` has exited; the bound only keeps a broken run from hanging the suite.
private func waitForExit(_ process: Process, bound: Duration = .seconds(30)) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + bound
    while process.isRunning && clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
}
