import Crypto
import Foundation

/// The management code at rest (docs/replicas.md "The code at rest"): sealed with AES-GCM under a key
/// derived (HKDF-SHA256) from the submission's reference, which only the visitor's form (or the app's
/// `Idempotency-Key`) holds. Stores keep `SHA-256(reference)` and the sealed bytes, never the
/// reference, so a copy of the database or a backup reveals no code.
public enum SubmissionSeal {
    static func digest(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    private static func key(_ submission: SubmissionKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: submission.material),
            salt: Array("petspot-web submission seal v1".utf8),
            info: submission.hash,
            outputByteCount: 32
        )
    }

    /// `secret` sealed for `submission` (nonce, ciphertext and tag together).
    public static func seal(_ secret: [UInt8], for submission: SubmissionKey) -> [UInt8] {
        // AES-GCM with a random nonce cannot fail for a 256-bit key; a failure would be a broken
        // crypto library, and an empty seal then opens to nothing (the visitor is told to check the list).
        guard let box = try? AES.GCM.seal(secret, using: key(submission)), let combined = box.combined else { return [] }
        return Array(combined)
    }

    /// The secret, or nil when `sealed` was not sealed for `submission` (or was altered).
    public static func open(_ sealed: [UInt8], for submission: SubmissionKey) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: key(submission)) else {
            return nil
        }
        return Array(plain)
    }

    /// A fingerprint of a request body (the API's 422 for the same key with another body).
    public static func fingerprint(_ body: [UInt8]) -> [UInt8] { digest(body) }

    /// A new attempt's owner token: 128 random bits as hex, like every reference of the write path.
    public static func newOwner() -> String { FormReference.make() }
}
