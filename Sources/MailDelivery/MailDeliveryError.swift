/// What can go wrong before a message is on its way: a bad setting, a message that cannot be rendered, a DKIM key,
/// a Maildir folder, or a libcurl call; never carries a password or a key.
public enum MailDeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value is unusable; `setting` names it (`--smtp-url`), `reason` never quotes a secret.
    case badSetting(setting: String, reason: String)
    /// The message cannot be written as RFC 5322 (an address, header or id that would break the format).
    case badMessage(String)
    /// The DKIM private key could not be read.
    case badKey(String)
    /// A Maildir folder could not be made.
    case maildir(path: String, reason: String)
    /// A libcurl call failed: the shim function's name and libcurl's code and text.
    case curl(function: String, code: Int32, message: String)

    /// A one-line explanation for the startup log.
    public var description: String {
        switch self {
        case .badSetting(let setting, let reason): "\(setting): \(reason)"
        case .badMessage(let reason): "mail message: \(reason)"
        case .badKey(let reason): "DKIM key: \(reason)"
        case .maildir(let path, let reason): "Maildir \(path): \(reason)"
        case .curl(let function, let code, let message): "\(function) failed (\(code)): \(message)"
        }
    }
}
