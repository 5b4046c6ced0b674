import Foundation

/// What the backend's write API answered (docs/report-flow.md): the created announcement's id
/// and management code, or its error body `{"error":{"code","message","field"?,"requestId"}}`.
public enum UpstreamWriteAnswer {
    /// The upstream's error body, read tolerantly (every member optional but `code`).
    public struct ErrorBody: Sendable, Equatable {
        /// E.g. `INVALID_FORMAT`, `CONFLICT`, `UNAUTHORIZED`.
        public let code: String
        /// The backend's English message.
        public let message: String?
        /// The field it refused, when it named one.
        public let field: String?
        /// The backend's own request id, for the log.
        public let requestID: String?
    }

    /// The id and the 6-digit management code of a `201` answer to a create; nil when the body
    /// does not hold both as strings.
    public static func created(_ body: [UInt8]) -> (id: String, managementPassword: String)? {
        guard let value = JSONValue.parse(Data(body)) else { return nil }
        let id: String? =
            switch value["id"] {
            case .string(let text): text
            case .number(let text): text
            default: nil
            }
        guard let id, !id.isEmpty, case .string(let password)? = value["managementPassword"], !password.isEmpty else { return nil }
        return (id, password)
    }

    /// The error body of a refused write; nil when the body is not one.
    public static func error(_ body: [UInt8]) -> ErrorBody? {
        guard let value = JSONValue.parse(Data(body)), let error = value["error"], case .string(let code)? = error["code"] else {
            return nil
        }
        func text(_ key: String) -> String? {
            if case .string(let text)? = error[key] { return text }
            return nil
        }
        return ErrorBody(code: code, message: text("message"), field: text("field"), requestID: text("requestId"))
    }
}
