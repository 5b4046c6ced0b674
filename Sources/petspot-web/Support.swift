import Foundation
import HTTPTypes
import Logging
import MicroHTTP
import WebApp

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
