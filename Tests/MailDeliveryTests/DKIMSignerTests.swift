import Foundation
import MailDelivery
import Testing

/// A private key made by openssl, and its public key as a DKIM DNS record derived by openssl too (not by the signer).
private struct TestKey {
    let pem: String
    let record: String

    /// `openssl genpkey` with `arguments`; `traditional` rewrites an RSA key as PKCS#1.
    static func make(_ arguments: [String], kind: String, traditional: Bool = false) throws -> TestKey {
        let folder = try MailTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("key.pem").path
        let der = folder.appendingPathComponent("public.der").path
        try MailTestSupport.openssl(["genpkey"] + arguments + ["-out", key])
        if traditional {
            try MailTestSupport.openssl(["rsa", "-in", key, "-traditional", "-out", key + ".1"])
            try FileManager.default.removeItem(atPath: key)
            try FileManager.default.moveItem(atPath: key + ".1", toPath: key)
        }
        try MailTestSupport.openssl(["pkey", "-in", key, "-pubout", "-outform", "DER", "-out", der])
        let spki = try Data(contentsOf: URL(fileURLWithPath: der))
        // DKIM publishes an RSA key as its SubjectPublicKeyInfo, an Ed25519 key as its 32 raw bytes (RFC 8463 §4).
        let published = kind == "ed25519" ? spki.suffix(32) : spki
        return TestKey(
            pem: try String(contentsOfFile: key, encoding: .utf8),
            record: "v=DKIM1; k=\(kind); p=\(Data(published).base64EncodedString())"
        )
    }
}

/// dkimpy's verdict on `bytes` with the public key `record`: "pass" or "fail".
private func verify(_ bytes: [UInt8], record: String) throws -> String {
    let folder = try MailTestSupport.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("signed.eml")
    try Data(bytes).write(to: file)
    return try MailTestSupport.runScript("dkim-verify.py", [file.path, record]).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// `bytes` with the first `old` replaced by `new`.
private func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
    Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: old, with: new, options: [], range: nil).utf8)
}

@Suite struct DKIMSignerTests {
    @Test func rsa_signature_verifies_with_dkimpy() throws {
        // Arrange
        let key = try TestKey.make(["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], kind: "rsa")
        let signer = try DKIMSigner(domain: "petspot.example", selector: "alerts2026", privateKeyPEM: key.pem)
        // Act
        let bytes = try sampleMessage().rendered(signer: signer)
        // Assert
        #expect(String(decoding: bytes.prefix(15), as: UTF8.self) == "DKIM-Signature:")
        #expect(try verify(bytes, record: key.record) == "pass")
        #expect(signer.dnsRecord == key.record)
    }

    @Test func rsa_pkcs1_key_is_read_too() throws {
        let key = try TestKey.make(["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], kind: "rsa", traditional: true)
        #expect(key.pem.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        let signer = try DKIMSigner(domain: "petspot.example", selector: "alerts2026", privateKeyPEM: key.pem)
        #expect(try verify(try sampleMessage().rendered(signer: signer), record: key.record) == "pass")
    }

    @Test func ed25519_signature_verifies_with_dkimpy() throws {
        let key = try TestKey.make(["-algorithm", "ed25519"], kind: "ed25519")
        let signer = try DKIMSigner(domain: "petspot.example", selector: "ed2026", privateKeyPEM: key.pem)
        let bytes = try sampleMessage().rendered(signer: signer)
        #expect(String(decoding: bytes, as: UTF8.self).contains("a=ed25519-sha256"))
        #expect(try verify(bytes, record: key.record) == "pass")
        #expect(signer.dnsRecord == key.record)
    }

    @Test func tampered_subject_fails_verification() throws {
        // Arrange
        let key = try TestKey.make(["-algorithm", "ed25519"], kind: "ed25519")
        let signer = try DKIMSigner(domain: "petspot.example", selector: "ed2026", privateKeyPEM: key.pem)
        let bytes = try sampleMessage(subject: "Lost dog near the park").rendered(signer: signer)
        // Act
        let tampered = replacing("Subject: Lost dog", with: "Subject: Lost cat", in: bytes)
        // Assert
        #expect(tampered != bytes)
        #expect(try verify(bytes, record: key.record) == "pass")
        #expect(try verify(tampered, record: key.record) == "fail")
    }

    @Test func tampered_unsubscribe_link_fails_verification() throws {
        let key = try TestKey.make(["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], kind: "rsa")
        let signer = try DKIMSigner(domain: "petspot.example", selector: "alerts2026", privateKeyPEM: key.pem)
        let bytes = try sampleMessage().rendered(signer: signer)
        let tampered = replacing("token=k3J9", with: "token=EVIL", in: bytes)
        #expect(try verify(tampered, record: key.record) == "fail")
    }

    @Test func signature_covers_the_list_headers_present() throws {
        let key = try TestKey.make(["-algorithm", "ed25519"], kind: "ed25519")
        let signer = try DKIMSigner(domain: "petspot.example", selector: "ed2026", privateKeyPEM: key.pem)
        let text = String(decoding: try sampleMessage().rendered(signer: signer), as: UTF8.self)
        let field = text.components(separatedBy: "\r\nFrom: ")[0].replacingOccurrences(of: "\r\n ", with: " ")
        let h = try #require(field.components(separatedBy: "h=").dropFirst().first?.components(separatedBy: ";").first)
        #expect(
            h.replacingOccurrences(of: " ", with: "")
                == "from:to:subject:date:message-id:list-unsubscribe:list-unsubscribe-post:list-id:mime-version:content-type"
        )
    }

    @Test func key_that_is_not_pem_is_refused_without_quoting_it() throws {
        do {
            _ = try DKIMSigner(domain: "petspot.example", selector: "s", privateKeyPEM: "secret-not-a-key")
            Issue.record("accepted a non-key")
        } catch {
            #expect(!"\(error)".contains("secret-not-a-key"))
        }
    }
}
