internal import COpenSSL
import WebsiteDataStore

/// Chromium's encryption of cookie values on Linux (`components/os_crypt`,
/// `os_crypt_linux.cc`; `os_crypt/async` `posix_key_provider.cc`), for one
/// password.
///
/// ## Format
/// An encrypted value is a 3-byte version tag then AES-128-CBC ciphertext
/// with PKCS#7 padding:
/// - `v10`: the key comes from the fixed password `"peanuts"` (Chromium on
///   Linux without a keyring, or with `--password-store=basic`);
/// - `v11`: the key comes from a random password Chromium keeps in the
///   user's keyring (GNOME libsecret or KWallet), which the user must give.
///
/// Key = PBKDF2-HMAC-SHA1(password, salt `"saltysalt"`, 1 iteration,
/// 16 bytes); IV = 16 spaces. (For `"peanuts"` the key is
/// `fd621fe5a2b402539dfa147ca9272778`, as `posix_key_provider.cc` spells
/// it out.)
///
/// ## OpenSSL calls
/// `PKCS5_PBKDF2_HMAC_SHA1` derives the key once, in `init`; each
/// ``decrypt(_:)`` runs `EVP_DecryptInit_ex2` (`AES-128-CBC` from
/// `EVP_CIPHER_fetch`), `EVP_DecryptUpdate` and `EVP_DecryptFinal_ex`, which
/// checks the padding, on a context owned by the instance and freed in
/// `deinit`. ``sha256(_:)`` is `EVP_Digest` with `EVP_sha256`. Failures go
/// through ``OpenSSLCheck``.
///
/// ## Threading
/// Not `Sendable`: one owner uses the context at a time.
final class ChromiumCookieCipher {
  /// The version tag of values under Chromium's fixed Linux password.
  static let v10Tag: [UInt8] = Array("v10".utf8)
  /// The version tag of values under the keyring password.
  static let v11Tag: [UInt8] = Array("v11".utf8)
  /// The password behind `v10` values.
  static let v10Password = "peanuts"
  /// PBKDF2 salt (`kSalt`).
  static let salt: [UInt8] = Array("saltysalt".utf8)
  /// AES-128: 16-byte keys and blocks.
  static let blockCount = 16
  /// The fixed IV: 16 spaces (`kIVBlockSizeAES128` times `' '`).
  static let iv = [UInt8](repeating: 0x20, count: blockCount)

  /// Why a value could not be decrypted; never carries the value.
  enum Failure: Error, Hashable {
    /// The ciphertext is empty or not a whole number of blocks.
    case truncated
    /// The padding is wrong after decryption: wrong password, or damaged
    /// data.
    case badPadding
  }

  /// The derived AES-128 key.
  private let key: SecretBytes
  /// `EVP_CIPHER_CTX`; owned, freed in `deinit`.
  private let context: OpaquePointer
  /// The fetched `AES-128-CBC` cipher; owned, freed in `deinit`.
  private let cipher: OpaquePointer

  /// Derives the key for `password` (UTF-8 bytes, possibly empty).
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails.
  init(password: String) throws {
    var passwordBytes = Array(password.utf8)
    defer {
      passwordBytes.withUnsafeMutableBytes { raw in
        if let base = raw.baseAddress { OPENSSL_cleanse(base, raw.count) }
      }
    }
    key = try SecretBytes(count: Self.blockCount) { output in
      try passwordBytes.withUnsafeBufferPointer { password in
        try Self.salt.withUnsafeBufferPointer { salt in
          // A NULL password pointer with length 0 is the empty password.
          try password.withMemoryRebound(to: CChar.self) { password in
            try OpenSSLCheck.call(
              PKCS5_PBKDF2_HMAC_SHA1(
                password.baseAddress, Int32(password.count), salt.baseAddress,
                Int32(salt.count), 1, Int32(output.count),
                output.baseAddress?.assumingMemoryBound(to: UInt8.self)),
              "PKCS5_PBKDF2_HMAC_SHA1")
          }
        }
      }
    }
    let cipher = try OpenSSLCheck.pointer(
      EVP_CIPHER_fetch(nil, "AES-128-CBC", nil), "EVP_CIPHER_fetch")
    guard let context = EVP_CIPHER_CTX_new() else {
      EVP_CIPHER_free(cipher)
      throw OpenSSLCheck.failure("EVP_CIPHER_CTX_new", code: .crypto)
    }
    self.cipher = cipher
    self.context = context
  }

  deinit {
    EVP_CIPHER_CTX_free(context)
    EVP_CIPHER_free(cipher)
  }

  /// Calls `body` with the derived key (tests compare it with Chromium's
  /// published `v10` key).
  func withKey<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try key.withUnsafeBytes(body)
  }

  /// Decrypts AES-128-CBC `ciphertext` (without the version tag) and removes
  /// its PKCS#7 padding.
  ///
  /// - Throws: ``Failure`` for a truncated value or a padding mismatch;
  ///   ``WebsiteDataStoreError/Code/crypto`` if OpenSSL fails otherwise.
  func decrypt(_ ciphertext: ArraySlice<UInt8>) throws -> [UInt8] {
    guard !ciphertext.isEmpty, ciphertext.count % Self.blockCount == 0,
      ciphertext.count <= Int(Int32.max) - Self.blockCount
    else { throw Failure.truncated }
    try initialise(encrypting: false)
    var output = [UInt8](repeating: 0, count: ciphertext.count + Self.blockCount)
    var total = 0
    var written: Int32 = 0
    try ciphertext.withUnsafeBufferPointer { input in
      try output.withUnsafeMutableBufferPointer { output in
        try OpenSSLCheck.call(
          EVP_DecryptUpdate(
            context, output.baseAddress, &written, input.baseAddress, Int32(input.count)),
          "EVP_DecryptUpdate")
        total = Int(written)
        guard EVP_DecryptFinal_ex(context, output.baseAddress! + total, &written) == 1 else {
          OPENSSL_cleanse(output.baseAddress, output.count)
          OpenSSLCheck.clearErrors()
          throw Failure.badPadding
        }
        total += Int(written)
      }
    }
    let plaintext = Array(output.prefix(total))
    output.withUnsafeMutableBytes { raw in OPENSSL_cleanse(raw.baseAddress, raw.count) }
    return plaintext
  }

  /// Encrypts `plaintext` as Chromium does (AES-128-CBC, PKCS#7 padding),
  /// without the version tag: for tests that build encrypted rows.
  func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
    guard plaintext.count <= Int(Int32.max) - Self.blockCount else {
      throw WebsiteDataStoreError(.invalidArgument, "the value to encrypt is too large")
    }
    try initialise(encrypting: true)
    var output = [UInt8](repeating: 0, count: plaintext.count + Self.blockCount)
    var total = 0
    var written: Int32 = 0
    try plaintext.withUnsafeBufferPointer { input in
      try output.withUnsafeMutableBufferPointer { output in
        try OpenSSLCheck.call(
          EVP_EncryptUpdate(
            context, output.baseAddress, &written, input.baseAddress, Int32(input.count)),
          "EVP_EncryptUpdate")
        total = Int(written)
        try OpenSSLCheck.call(
          EVP_EncryptFinal_ex(context, output.baseAddress! + total, &written),
          "EVP_EncryptFinal_ex")
        total += Int(written)
      }
    }
    return Array(output.prefix(total))
  }

  /// Keys the context for one operation with the fixed IV.
  private func initialise(encrypting: Bool) throws {
    try key.withUnsafeBytes { key in
      let key = key.baseAddress?.assumingMemoryBound(to: UInt8.self)
      try Self.iv.withUnsafeBufferPointer { iv in
        if encrypting {
          try OpenSSLCheck.call(
            EVP_EncryptInit_ex2(context, cipher, key, iv.baseAddress, nil), "EVP_EncryptInit_ex2")
        } else {
          try OpenSSLCheck.call(
            EVP_DecryptInit_ex2(context, cipher, key, iv.baseAddress, nil), "EVP_DecryptInit_ex2")
        }
      }
    }
  }

  /// SHA-256 of `data` (`EVP_Digest` with `EVP_sha256`): Chromium (cookie
  /// database version 24 and later) puts the SHA-256 of the cookie's
  /// `host_key` before the value it encrypts.
  static func sha256(_ data: [UInt8]) throws -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    var size: UInt32 = 0
    try data.withUnsafeBytes { data in
      try digest.withUnsafeMutableBufferPointer { digest in
        try OpenSSLCheck.call(
          EVP_Digest(data.baseAddress, data.count, digest.baseAddress, &size, EVP_sha256(), nil),
          "EVP_Digest(SHA-256)")
      }
    }
    guard size == 32 else {
      throw WebsiteDataStoreError(.crypto, "OpenSSL EVP_Digest returned a short SHA-256")
    }
    return digest
  }
}
