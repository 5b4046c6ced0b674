/// One mailbox: an ASCII address (`name@example.org`) and an optional display name in any script.
public struct MailAddress: Sendable, Hashable {
    /// The address itself, ASCII (no SMTPUTF8: docs/mail.md "Format").
    public let address: String
    /// The name shown beside the address, if any; encoded as RFC 2047 words when it is not ASCII.
    public let displayName: String?

    /// An address with an optional display name.
    public init(_ address: String, displayName: String? = nil) {
        self.address = address
        self.displayName = displayName
    }

    /// The address checked for what would break a header or an SMTP envelope.
    func validatedAddress() throws(MailDeliveryError) -> String {
        let forbidden: Set<UInt8> = [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: " ")]
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1,
            bytes.first != UInt8(ascii: "@"), bytes.last != UInt8(ascii: "@"),
            bytes.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) })
        else { throw .badMessage("not a plain ASCII address: \(address.debugDescription)") }
        return address
    }
}
