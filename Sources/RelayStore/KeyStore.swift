public import Foundation

/// The link keys on disk: this device's private key and its partner's public key, each in
/// a file of mode 0600 in the state directory. They live apart from the database so that
/// the database can be rebuilt without unpairing.
public struct KeyStore: Sendable {
    /// The state directory holding the keys.
    public let directory: StateDirectory

    /// A store in `directory`; call `directory.prepare()` first.
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    private var identityPath: String { directory.file("identity.key") }
    private var partnerPath: String { directory.file("partner.key") }

    /// This device's 32-byte private key, created with `generate` on first use.
    public func identity(generate: () -> Data) throws(StoreError) -> Data {
        if let stored = try PrivateFiles.read(identityPath) {
            guard stored.count == 32 else { throw .corrupt(identityPath, "\(stored.count) bytes instead of 32") }
            return stored
        }
        let fresh = generate()
        try PrivateFiles.write(fresh, to: identityPath)
        return fresh
    }

    /// The partner's 32-byte public key, or `nil` when unpaired.
    public func partner() throws(StoreError) -> Data? {
        guard let stored = try PrivateFiles.read(partnerPath) else { return nil }
        guard stored.count == 32 else { throw .corrupt(partnerPath, "\(stored.count) bytes instead of 32") }
        return stored
    }

    /// Stores the partner's public key after a confirmed pairing.
    public func setPartner(_ publicKey: Data) throws(StoreError) {
        guard publicKey.count == 32 else { throw .corrupt(partnerPath, "a partner key must be 32 bytes") }
        try PrivateFiles.write(publicKey, to: partnerPath)
    }

    /// Forgets the partner (unpairing); this device keeps its own identity.
    public func forgetPartner() throws(StoreError) {
        try PrivateFiles.remove(partnerPath)
    }
}
