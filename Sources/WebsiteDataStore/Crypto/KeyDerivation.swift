internal import COpenSSL

/// Key derivation: HKDF-SHA-256 for subkeys of the data key, scrypt for
/// passphrases.
///
/// ## Subkeys
/// The data key is never used directly. HKDF-SHA-256 (RFC 5869, OpenSSL
/// `EVP_KDF` `"HKDF"`, extract-and-expand, empty salt because the data key is
/// already uniformly random) derives independent 32-byte subkeys, one per
/// purpose, separated by their `info` labels:
/// - ``encryptionKey(from:)``: `"websitedata cookie seal v1"`, the
///   AES-256-GCM key for cookie fields;
/// - ``lookupKey(from:)``: `"websitedata lookup hmac v1"`, the HMAC-SHA-256
///   key for lookup columns.
///
/// ## Passphrases
/// ``deriveKey(passphrase:parameters:)`` runs scrypt (RFC 7914,
/// `EVP_PBE_scrypt`) with validated ``ScryptParameters`` and a `maxmem` sized
/// to the parameters (OpenSSL's default limit, 32 MiB, is just too small for
/// N = 2^15, r = 8).
enum KeyDerivation {
  /// The size of every derived key: 32 bytes.
  static let keyCount = 32
  /// HKDF `info` for the cookie-field encryption key.
  static let encryptionInfo = Array("websitedata cookie seal v1".utf8)
  /// HKDF `info` for the lookup HMAC key.
  static let lookupInfo = Array("websitedata lookup hmac v1".utf8)

  /// The AES-256-GCM key for cookie fields: HKDF-SHA-256 of `dataKey` with
  /// ``encryptionInfo``.
  static func encryptionKey(from dataKey: SecretBytes) throws -> SecretBytes {
    try hkdfSHA256(key: dataKey, salt: [], info: encryptionInfo, count: keyCount)
  }

  /// The HMAC-SHA-256 key for lookup columns: HKDF-SHA-256 of `dataKey` with
  /// ``lookupInfo``.
  static func lookupKey(from dataKey: SecretBytes) throws -> SecretBytes {
    try hkdfSHA256(key: dataKey, salt: [], info: lookupInfo, count: keyCount)
  }

  /// HKDF-SHA-256 (RFC 5869), extract then expand, through `EVP_KDF_derive`
  /// with the `"digest"`, `"key"`, `"salt"` and `"info"` parameters.
  ///
  /// - Parameters:
  ///   - key: The input keying material (IKM), not empty.
  ///   - salt: The salt; empty means HashLen zero bytes (RFC 5869 §2.2).
  ///   - info: The context label; may be empty.
  ///   - count: The output size, 1 to 8160 (255 · 32) bytes.
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` for an empty
  ///   key or a bad size; ``WebsiteDataStoreError/Code/crypto`` if OpenSSL
  ///   fails.
  static func hkdfSHA256(
    key: SecretBytes, salt: [UInt8], info: [UInt8], count: Int
  ) throws -> SecretBytes {
    guard key.count > 0, (1...(255 * 32)).contains(count) else {
      throw WebsiteDataStoreError(.invalidArgument, "HKDF needs a key and 1 to 8160 output bytes")
    }
    let kdf = try OpenSSLCheck.pointer(EVP_KDF_fetch(nil, "HKDF", nil), "EVP_KDF_fetch")
    defer { EVP_KDF_free(kdf) }
    let context = try OpenSSLCheck.pointer(EVP_KDF_CTX_new(kdf), "EVP_KDF_CTX_new")
    // EVP_KDF_CTX_free wipes the copies of key, salt and info it holds.
    defer { EVP_KDF_CTX_free(context) }
    return try SecretBytes(count: count) { output in
      try key.withUnsafeBytes { key in
        try salt.withUnsafeBytes { salt in
          try info.withUnsafeBytes { info in
            // OSSL_PARAM keeps pointers: they are valid for this call only,
            // which is as long as EVP_KDF_derive needs them.
            var parameters = [
              OSSL_PARAM_construct_utf8_string(
                websitedata_param_digest(), websitedata_digest_sha256(), 0),
              OSSL_PARAM_construct_octet_string(
                websitedata_param_key(), UnsafeMutableRawPointer(mutating: key.baseAddress),
                key.count),
            ]
            if !salt.isEmpty {
              parameters.append(
                OSSL_PARAM_construct_octet_string(
                  websitedata_param_salt(), UnsafeMutableRawPointer(mutating: salt.baseAddress),
                  salt.count))
            }
            if !info.isEmpty {
              parameters.append(
                OSSL_PARAM_construct_octet_string(
                  websitedata_param_info(), UnsafeMutableRawPointer(mutating: info.baseAddress),
                  info.count))
            }
            parameters.append(OSSL_PARAM_construct_end())
            try parameters.withUnsafeBufferPointer { parameters in
              try OpenSSLCheck.call(
                EVP_KDF_derive(
                  context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count,
                  parameters.baseAddress),
                "EVP_KDF_derive(HKDF)")
            }
          }
        }
      }
    }
  }

  /// A 32-byte key-encryption key from `passphrase` with scrypt.
  ///
  /// - Parameters:
  ///   - passphrase: The passphrase bytes (UTF-8 as typed), not empty.
  ///   - parameters: Validated parameters: ``ScryptParameters/forNewStore()``
  ///     or ``ScryptParameters/init(storedN:r:p:salt:)``.
  /// - Throws: ``WebsiteDataStoreError/Code/invalidArgument`` for an empty
  ///   passphrase; ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails.
  static func deriveKey(
    passphrase: SecretBytes, parameters: ScryptParameters
  ) throws -> SecretBytes {
    guard passphrase.count > 0 else {
      throw WebsiteDataStoreError(.invalidArgument, "the passphrase is empty")
    }
    return try scryptUnchecked(
      passphrase: passphrase, salt: parameters.salt, n: parameters.n, r: parameters.r,
      p: parameters.p, count: keyCount)
  }

  /// A 32-byte key-encryption key from `passphrase` with scrypt, for stored
  /// parameters: they are validated first (see
  /// ``ScryptParameters/init(storedN:r:p:salt:)``), so N < 2^15 is refused.
  static func deriveKey(
    passphrase: SecretBytes, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64
  ) throws -> SecretBytes {
    try deriveKey(
      passphrase: passphrase, parameters: ScryptParameters(storedN: n, r: r, p: p, salt: salt))
  }

  /// scrypt (RFC 7914) through `EVP_PBE_scrypt`, **without** the parameter
  /// floor: only for the checked entry points above and for known-answer
  /// tests with N = 16.
  ///
  /// `maxmem` is set to the memory the parameters need plus 1 MiB (see
  /// ``ScryptParameters/memory(n:r:p:)``).
  static func scryptUnchecked(
    passphrase: SecretBytes, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, count: Int
  ) throws -> SecretBytes {
    guard let memory = ScryptParameters.memory(n: n, r: r, p: p),
      memory <= UInt64.max - (1 << 20), count > 0
    else {
      throw WebsiteDataStoreError(.invalidArgument, "the scrypt parameters are out of range")
    }
    let maximumMemory = memory + (1 << 20)
    return try SecretBytes(count: count) { output in
      try passphrase.withUnsafeBytes { passphrase in
        try salt.withUnsafeBufferPointer { salt in
          // A NULL passphrase or salt means the empty string to OpenSSL.
          try OpenSSLCheck.call(
            EVP_PBE_scrypt(
              passphrase.baseAddress?.assumingMemoryBound(to: CChar.self), passphrase.count,
              salt.baseAddress, salt.count, n, r, p, maximumMemory,
              output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count),
            "EVP_PBE_scrypt")
        }
      }
    }
  }
}
