/// Envelope encryption of a store's data key.
///
/// A store's cookies are sealed under subkeys of one random 32-byte *data
/// key*. The data key is stored only *wrapped*: sealed with AES-256-GCM (see
/// ``AEADCipher``) under a *key-encryption key* (KEK) from a key file or a
/// passphrase, with the associated data `"websitedata data-key v1"`. A wrapped
/// key is ``wrappedCount`` (61) bytes. Rotating the KEK re-wraps the data key
/// (``rewrap(dataKey:newKEK:)``); the cookies are not re-encrypted.
///
/// A wrong KEK fails GCM authentication and is reported as
/// ``WebsiteDataStoreError/Code/wrongKey``: nothing else can tell a wrong key
/// from a wrapped key that was tampered with, and a wrong key is by far the
/// likelier cause.
enum KeyEnvelope {
  /// The size of a data key: 32 bytes.
  static let dataKeyCount = 32
  /// The size of a wrapped data key: the key plus ``AEADCipher/overhead``.
  static let wrappedCount = dataKeyCount + AEADCipher.overhead
  /// The associated data of every wrapped data key.
  static let associatedData = Array("websitedata data-key v1".utf8)

  /// A new random data key (`RAND_bytes`) and its wrapping under `kek`.
  ///
  /// - Parameter kek: A 32-byte key-encryption key.
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` if `kek` is not
  ///   32 bytes; ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails.
  static func create(kek: SecretBytes) throws -> (dataKey: SecretBytes, wrapped: [UInt8]) {
    let dataKey = try SecretBytes.random(count: dataKeyCount)
    return (dataKey, try wrap(dataKey, kek: kek))
  }

  /// The data key inside `wrapped`.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/wrongKey`` ("the key or passphrase
  ///   does not open this store") if `kek` does not open it;
  ///   ``WebsiteDataStoreError/Code/corrupt`` if `wrapped` is not a wrapped
  ///   key; ``WebsiteDataStoreError/Code/invalidArgument`` if `kek` is not 32
  ///   bytes.
  static func unwrap(_ wrapped: [UInt8], kek: SecretBytes) throws -> SecretBytes {
    guard wrapped.count == wrappedCount else {
      throw WebsiteDataStoreError(.corrupt, "the store's wrapped data key is damaged")
    }
    let cipher = try AEADCipher(key: kek)
    var opened: [UInt8]
    do {
      opened = try cipher.open(wrapped, associatedData: associatedData)
    } catch let error as WebsiteDataStoreError where error.code == .authenticationFailed {
      throw WebsiteDataStoreError(.wrongKey, "the key or passphrase does not open this store")
    }
    return SecretBytes(consuming: &opened)
  }

  /// `dataKey` wrapped under a new KEK, for key rotation. The old wrapping
  /// stays valid until the caller replaces it.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` if a key has the
  ///   wrong size; ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails.
  static func rewrap(dataKey: SecretBytes, newKEK: SecretBytes) throws -> [UInt8] {
    try wrap(dataKey, kek: newKEK)
  }

  private static func wrap(_ dataKey: SecretBytes, kek: SecretBytes) throws -> [UInt8] {
    guard dataKey.count == dataKeyCount else {
      throw WebsiteDataStoreError(.invalidArgument, "a data key must be \(dataKeyCount) bytes")
    }
    let cipher = try AEADCipher(key: kek)
    return try dataKey.withUnsafeBytes { dataKey in
      try cipher.seal(dataKey, associatedData: associatedData)
    }
  }
}
