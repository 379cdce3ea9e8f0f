internal import CSecret

/// Chromium's "Safe Storage" password from the freedesktop Secret Service
/// (GNOME Keyring, KeePassXC…) through libsecret, as Chromium's
/// `KeyStorageLibsecret` stores it: `secret_password_lookup_sync` with the
/// `chrome_libsecret_os_crypt_password_v2` schema (then the pre-M55 one),
/// matched by the `application` attribute (``WebsiteData/WebBrowser/keyringApplication``).
///
/// The lookup blocks on D-Bus (and on the service unlocking a locked
/// keyring, which may prompt): call it from a thread that may block.
enum ChromiumKeyring {
  /// What the Secret Service said.
  enum Answer {
    /// The password.
    case password(String)
    /// The service answered, and holds no such password.
    case notStored
    /// No service answered (no session bus, no Secret Service, a keyring
    /// left locked), with libsecret's reason, which holds no secret.
    case unavailable(String)
  }

  /// The password of `application` (`chromium`, `chrome`).
  static func password(application: String) -> Answer {
    var message: UnsafeMutablePointer<CChar>?
    guard let secret = websitedata_chromium_keyring_password(application, &message) else {
      guard let message else { return .notStored }
      defer { websitedata_message_free(message) }
      return .unavailable(String(cString: message))
    }
    defer { websitedata_secret_free(secret) }
    return .password(String(cString: secret))
  }
}
