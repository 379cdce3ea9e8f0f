/// Where a store's key-encryption key (KEK) comes from. There is no
/// plaintext mode and no built-in key: every store has one of these.
///
/// - ``keyFile(_:)``: a 32-byte random key in a file of mode 0600, kept
///   outside the store's folder (see ``KeyFile``).
/// - ``passphrase(_:)``: a passphrase, stretched with scrypt using
///   parameters stored with the store (see ``ScryptParameters``).
///
/// Its descriptions show the key file's path but never a passphrase.
public enum KeySource: Sendable {
  /// A key file at this path.
  case keyFile(String)
  /// A passphrase, as bytes (UTF-8 as typed); build it with
  /// ``SecretBytes/init(consuming:)`` so that your copy is wiped.
  case passphrase(SecretBytes)

  /// The KEK for a **new** store, and the scrypt parameters to store with it
  /// (`nil` for a key file).
  ///
  /// A key file is created if missing (``KeyFile/loadOrCreate(at:)``); a
  /// passphrase gets ``ScryptParameters/forNewStore()``.
  ///
  /// - Throws: the errors of ``KeyFile/loadOrCreate(at:)`` and
  ///   ``KeyDerivation/deriveKey(passphrase:parameters:)``.
  func newStoreKey() throws -> (kek: SecretBytes, scrypt: ScryptParameters?) {
    switch self {
    case .keyFile(let path):
      return (try KeyFile.loadOrCreate(at: path), nil)
    case .passphrase(let passphrase):
      let parameters = try ScryptParameters.forNewStore()
      return (
        try KeyDerivation.deriveKey(passphrase: passphrase, parameters: parameters), parameters
      )
    }
  }

  /// The KEK for an **existing** store, given the scrypt parameters stored
  /// with it (`nil` if it is locked with a key file). A missing key file is
  /// not created.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/wrongKey`` if the store is locked
  ///   with the other kind of key; the errors of ``KeyFile/load(at:)`` and
  ///   ``KeyDerivation/deriveKey(passphrase:parameters:)``.
  func existingStoreKey(scrypt: ScryptParameters?) throws -> SecretBytes {
    switch (self, scrypt) {
    case (.keyFile(let path), nil):
      return try KeyFile.load(at: path)
    case (.passphrase(let passphrase), let parameters?):
      return try KeyDerivation.deriveKey(passphrase: passphrase, parameters: parameters)
    case (.keyFile, _?):
      throw WebsiteDataStoreError(
        .wrongKey, "this store is locked with a passphrase, not a key file")
    case (.passphrase, nil):
      throw WebsiteDataStoreError(
        .wrongKey, "this store is locked with a key file, not a passphrase")
    }
  }
}

extension KeySource: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `"key file /path/to/key"` or `"passphrase (<redacted>)"`.
  public var description: String {
    switch self {
    case .keyFile(let path): "key file \(path)"
    case .passphrase: "passphrase (<redacted>)"
    }
  }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// A mirror without children, so that `dump` shows no passphrase.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
