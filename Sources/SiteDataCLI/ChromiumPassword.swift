import WebsiteData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where `cookies import` takes Chromium's keyring password from, for the
/// first `v11` value of a database (never asked for a database without
/// one), in this order:
/// 1. `--password-stdin` or `SITEDATA_CHROMIUM_PASSWORD` (given up front);
/// 2. the Secret Service (``ChromiumKeyring``), under the browser's
///    application name (`--from-browser`'s, else told from the path:
///    `google-chrome` is Chrome's, anything else Chromium's);
/// 3. when stdin is a terminal, a prompt, as `--password-stdin` gives.
///
/// Otherwise each `v11` row is reported as needing the password. What
/// happened is said on stderr as a note, never the password.
enum ChromiumPassword {
  /// The source for `path`.
  static func source(given: String?, browser: WebBrowser?, path: String)
    -> ChromiumCookieDatabase.PasswordSource
  {
    if let given { return .init { given } }
    let application =
      (browser ?? (path.contains("/google-chrome/") ? .chrome : .chromium)).keyringApplication
      ?? "chromium"
    return .init {
      switch ChromiumKeyring.password(application: application) {
      case .password(let password):
        Console.error(
          "Note: the keyring's \(application) Safe Storage password unlocks v11 values\n")
        return password
      case .notStored:
        Console.error("Note: the keyring holds no \(application) Safe Storage password\n")
      case .unavailable(let reason):
        Console.error("Note: no keyring answered (\(reason))\n")
      }
      guard isatty(STDIN_FILENO) == 1 else { return nil }
      let secret = try SecretInput.passphraseFromStdin(prompt: "Chromium password: ")
      return secret.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
    }
  }
}
