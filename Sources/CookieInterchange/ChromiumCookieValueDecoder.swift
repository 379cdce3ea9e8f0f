import WebsiteDataStore

/// Turns the `value` and `encrypted_value` columns of a Chromium cookie row
/// into the cookie's value (`SQLitePersistentCookieStore::Backend::
/// MakeCookiesFromSQLStatement`, `os_crypt` on Linux).
///
/// - An empty `encrypted_value`: the plain `value` is the value.
/// - A row with both is invalid (Chromium's
///   `kEncryptedAndPlaintextValuesAreInvalid`).
/// - `v10…` decrypts with the fixed key, `v11…` with the keyring password
///   (see ``ChromiumCookieCipher``); any other prefix is unknown.
/// - From database version 24, the plaintext starts with SHA-256(`host_key`),
///   which must match and is removed: it ties each value to its row's domain.
///
/// The derived keys are made on first use and kept for the whole file; the
/// keyring password is asked for (``ChromiumCookieDatabase/PasswordSource``)
/// at the first `v11` value, once. Not `Sendable`: one reader uses it.
final class ChromiumCookieValueDecoder {
  /// Where the keyring password for `v11` values comes from.
  private let passwordSource: ChromiumCookieDatabase.PasswordSource
  /// Whether `passwordSource` was asked (its answer is `v11Cipher`).
  private var askedForPassword = false
  /// Whether plaintexts start with SHA-256(`host_key`).
  private let hashesDomain: Bool
  private var v10Cipher: ChromiumCookieCipher?
  private var v11Cipher: ChromiumCookieCipher?

  init(password: ChromiumCookieDatabase.PasswordSource, hashesDomain: Bool) {
    self.passwordSource = password
    self.hashesDomain = hashesDomain
  }

  /// The cookie value of a row.
  ///
  /// - Throws: ``CookieRowProblem`` for a value that cannot be read (the
  ///   reason never includes the value); ``WebsiteDataStoreError/Code/crypto``
  ///   if OpenSSL fails.
  func value(plain: [UInt8], encrypted: [UInt8], hostKey: String) throws -> String {
    guard !encrypted.isEmpty else {
      guard let value = String(validating: plain, as: UTF8.self) else {
        throw CookieRowProblem("value is not valid UTF-8")
      }
      return value
    }
    guard plain.isEmpty else {
      throw CookieRowProblem(
        "the row has both a plain value and an encrypted_value; Chromium refuses such rows")
    }
    let tag = Array(encrypted.prefix(3))
    let cipher: ChromiumCookieCipher
    switch tag {
    case ChromiumCookieCipher.v10Tag:
      cipher = try v10Cipher ?? ChromiumCookieCipher(password: ChromiumCookieCipher.v10Password)
      v10Cipher = cipher
    case ChromiumCookieCipher.v11Tag:
      if !askedForPassword {
        askedForPassword = true
        v11Cipher = try passwordSource.password().map { try ChromiumCookieCipher(password: $0) }
      }
      guard let v11Cipher else {
        throw CookieRowProblem(
          "the value is encrypted with the keyring password (v11); give that password to read it")
      }
      cipher = v11Cipher
    default:
      throw CookieRowProblem(
        "encrypted_value has an unknown format (it does not start with v10 or v11)")
    }
    var plaintext: [UInt8]
    do {
      plaintext = try cipher.decrypt(encrypted.dropFirst(3))
    } catch ChromiumCookieCipher.Failure.truncated {
      throw CookieRowProblem("encrypted_value is truncated (not a whole number of AES blocks)")
    } catch ChromiumCookieCipher.Failure.badPadding {
      throw CookieRowProblem(
        tag == ChromiumCookieCipher.v11Tag
          ? "encrypted_value does not decrypt (bad padding): wrong keyring password, or damaged"
          : "encrypted_value does not decrypt (bad padding): it is damaged")
    }
    if hashesDomain {
      let expected = try ChromiumCookieCipher.sha256(Array(hostKey.utf8))
      guard plaintext.count >= expected.count,
        plaintext.prefix(expected.count).elementsEqual(expected)
      else {
        throw CookieRowProblem(
          "the decrypted value does not start with the SHA-256 of its host_key: wrong password,"
            + " damaged, or moved from another row")
      }
      plaintext.removeFirst(expected.count)
    }
    guard let value = String(validating: plaintext, as: UTF8.self) else {
      throw CookieRowProblem("the decrypted value is not valid UTF-8")
    }
    return value
  }
}
