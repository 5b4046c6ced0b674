import Crypto
import Foundation
import _CryptoExtras

/// Signs rendered messages with DKIM (RFC 6376), relaxed/relaxed: rsa-sha256 with an RSA key, or ed25519-sha256
/// (RFC 8463) with an Ed25519 key (docs/mail.md "DKIM").
public struct DKIMSigner: Sendable {
    /// The signing domain (`d=`).
    public let domain: String
    /// The selector (`s=`): the key's DNS record is `<selector>._domainkey.<domain>`.
    public let selector: String
    private let key: Key

    /// The header fields the signature covers, in this order, when the message has them; the List-* ones because
    /// mailbox providers ask for one-click unsubscribe under a signature (RFC 8058 §4).
    static let signedHeaders = [
        "from", "to", "subject", "date", "message-id", "list-unsubscribe", "list-unsubscribe-post", "list-id", "mime-version",
        "content-type",
    ]

    private enum Key: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        /// The 32-byte seed: swift-crypto 3's Ed25519 key type is not Sendable, so the key is made at each signature.
        case ed25519(seed: [UInt8])
    }

    /// A signer from a PEM private key: RSA (PKCS#1 or PKCS#8, 2048 bits or more) or Ed25519 (PKCS#8); the error
    /// never quotes the key.
    public init(domain: String, selector: String, privateKeyPEM: String) throws {
        let tagCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
        guard !domain.isEmpty, !selector.isEmpty, domain.unicodeScalars.allSatisfy({ $0.isASCII && tagCharacters.contains($0) }),
            selector.unicodeScalars.allSatisfy({ $0.isASCII && tagCharacters.contains($0) })
        else { throw MailDeliveryError.badKey("domain and selector must be ASCII DNS labels") }
        self.domain = domain
        self.selector = selector
        if let seed = Self.ed25519Seed(pem: privateKeyPEM) {
            _ = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
            key = .ed25519(seed: seed)
        } else if let rsa = try? _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM) {
            key = .rsa(rsa)
        } else {
            throw MailDeliveryError.badKey("not an RSA (PKCS#1 or PKCS#8, >= 2048 bits) or Ed25519 (PKCS#8) private key in PEM")
        }
    }

    /// The DNS TXT record that publishes the public key: `v=DKIM1; k=rsa; p=…` or `v=DKIM1; k=ed25519; p=…`.
    public var dnsRecord: String {
        switch key {
        case .rsa(let key): "v=DKIM1; k=rsa; p=" + key.publicKey.derRepresentation.base64EncodedString()
        case .ed25519(let seed):
            "v=DKIM1; k=ed25519; p="
                + ((try? Curve25519.Signing.PrivateKey(rawRepresentation: seed))?.publicKey.rawRepresentation.base64EncodedString() ?? "")
        }
    }

    /// The `a=` tag of this key.
    var algorithm: String {
        switch key {
        case .rsa: "rsa-sha256"
        case .ed25519: "ed25519-sha256"
        }
    }

    /// The signature of `data` (the canonical headers): RSASSA-PKCS1-v1_5 over SHA-256, or Ed25519 over the SHA-256
    /// digest (RFC 8463 §3: PureEdDSA on the hash, not on the data).
    func sign(_ data: [UInt8]) throws -> Data {
        switch key {
        case .rsa(let key):
            return try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
        case .ed25519(let seed):
            return try Curve25519.Signing.PrivateKey(rawRepresentation: seed).signature(for: Data(SHA256.hash(data: data)))
        }
    }

    /// The 32-byte seed of an Ed25519 PKCS#8 PEM (RFC 8410 §7), or nil when `pem` is not one: swift-crypto reads
    /// Ed25519 keys only as raw bytes, and this form has a fixed 16-byte prefix.
    private static func ed25519Seed(pem: String) -> [UInt8]? {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: "-----BEGIN PRIVATE KEY-----"),
            let end = lines.firstIndex(of: "-----END PRIVATE KEY-----"), begin < end,
            let der = Data(base64Encoded: lines[(begin + 1)..<end].joined())
        else { return nil }
        let prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
        let bytes = Array(der)
        guard bytes.count == prefix.count + 32, Array(bytes.prefix(prefix.count)) == prefix else { return nil }
        return Array(bytes.suffix(32))
    }
}
