/// The unlocked keys of an open store: the data key and the two subkeys
/// derived from it, ready to use.
///
/// - ``cipher``: AES-256-GCM under ``KeyDerivation/encryptionKey(from:)``,
///   for cookie fields.
/// - ``lookup``: HMAC-SHA-256 under ``KeyDerivation/lookupKey(from:)``, for
///   lookup columns.
///
/// Construct by provenance: ``create(kek:)`` for a new store (a new random
/// data key and its wrapping to store), ``unlock(wrapped:kek:)`` for an
/// existing one. ``rewrap(newKEK:)`` rotates the key-encryption key.
///
/// ## Threading
/// Not `Sendable`, because ``cipher`` and ``lookup`` reuse OpenSSL contexts:
/// the store's actor (or the one queue that does its SQLite work) owns the
/// instance. For work on another thread, make a separate cipher or hash with
/// ``makeCipher()`` and ``makeLookupHash()``; the keys themselves are
/// ``SecretBytes`` and are `Sendable`.
final class KeyMaterial {
  /// The data key: the root of the store's keys, stored only wrapped.
  let dataKey: SecretBytes
  /// The AES-256-GCM key for cookie fields, derived from ``dataKey``.
  let encryptionKey: SecretBytes
  /// The HMAC-SHA-256 key for lookup columns, derived from ``dataKey``.
  let lookupKey: SecretBytes
  /// Seals and opens cookie fields under ``encryptionKey``.
  let cipher: AEADCipher
  /// Keyed hashes for lookups under ``lookupKey``.
  let lookup: KeyedHash

  /// Derives the subkeys of `dataKey` and prepares the cipher and hash.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` if `dataKey` is
  ///   not 32 bytes; ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails.
  init(dataKey: SecretBytes) throws {
    guard dataKey.count == KeyEnvelope.dataKeyCount else {
      throw WebsiteDataStoreError(
        .invalidArgument, "a data key must be \(KeyEnvelope.dataKeyCount) bytes")
    }
    self.dataKey = dataKey
    encryptionKey = try KeyDerivation.encryptionKey(from: dataKey)
    lookupKey = try KeyDerivation.lookupKey(from: dataKey)
    cipher = try AEADCipher(key: encryptionKey)
    lookup = try KeyedHash(key: lookupKey)
  }

  /// Keys for a new store: a new random data key, and its wrapping under
  /// `kek` to store with the store.
  ///
  /// - Throws: as ``KeyEnvelope/create(kek:)``.
  static func create(kek: SecretBytes) throws -> (keys: KeyMaterial, wrapped: [UInt8]) {
    let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
    return (try KeyMaterial(dataKey: dataKey), wrapped)
  }

  /// The keys of an existing store, from its wrapped data key.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/wrongKey`` if `kek` does not open
  ///   `wrapped`; otherwise as ``KeyEnvelope/unwrap(_:kek:)``.
  static func unlock(wrapped: [UInt8], kek: SecretBytes) throws -> KeyMaterial {
    try KeyMaterial(dataKey: KeyEnvelope.unwrap(wrapped, kek: kek))
  }

  /// The data key wrapped under `newKEK`, to replace the stored wrapping when
  /// rotating the key-encryption key. Cookies need no re-encryption.
  func rewrap(newKEK: SecretBytes) throws -> [UInt8] {
    try KeyEnvelope.rewrap(dataKey: dataKey, newKEK: newKEK)
  }

  /// A new cipher under ``encryptionKey``, for use by another owner.
  func makeCipher() throws -> AEADCipher {
    try AEADCipher(key: encryptionKey)
  }

  /// A new keyed hash under ``lookupKey``, for use by another owner.
  func makeLookupHash() throws -> KeyedHash {
    try KeyedHash(key: lookupKey)
  }
}

extension KeyMaterial: CustomStringConvertible {
  /// `"KeyMaterial(<redacted>)"`: never a key.
  var description: String { "KeyMaterial(<redacted>)" }
}
