import Foundation
import Logging
import MicroHTTP
import WebApp

/// Runs async work from the synchronous main thread, which must stay free to wait for signals.
func blockingAwait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// The non-throwing form.
func blockingAwait(_ work: @escaping @Sendable () async -> Void) {
    _ = try? blockingAwait { () async throws -> Int in await work(); return 0 }
}

/// Carries a result across the semaphore (written once before signal, read once after wait).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// Sets up swift-log once with the configured format and returns the app's logger.
func bootstrapLogging(_ configuration: AppConfiguration) -> Logger {
    let level = configuration.logLevel
    switch configuration.logFormat {
    case .text:
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
    case .json:
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
    return Logger(label: "petspot-web")
}
