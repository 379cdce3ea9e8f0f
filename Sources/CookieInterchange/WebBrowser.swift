/// The browsers whose profiles ``BrowserProfile/profiles(of:home:environment:)``
/// finds on Linux, where each keeps them, as `yt-dlp --cookies-from-browser`
/// looks for them.
public enum WebBrowser: String, CaseIterable, Sendable {
  /// Chromium: `$XDG_CONFIG_HOME/chromium` (default `~/.config/chromium`),
  /// the Flatpak's `~/.var/app/org.chromium.Chromium/config/chromium`, the
  /// snap's `~/snap/chromium/common/chromium`.
  case chromium
  /// Google Chrome: `$XDG_CONFIG_HOME/google-chrome`, the Flatpak's
  /// `~/.var/app/com.google.Chrome/config/google-chrome`.
  case chrome
  /// Firefox (and Firefox ESR): `~/.mozilla/firefox`, the snap's
  /// `~/snap/firefox/common/.mozilla/firefox`, the Flatpak's
  /// `~/.var/app/org.mozilla.firefox/.mozilla/firefox`; the profiles are
  /// listed in each folder's `profiles.ini`.
  case firefox

  /// The name people know it by.
  public var displayName: String {
    switch self {
    case .chromium: "Chromium"
    case .chrome: "Chrome"
    case .firefox: "Firefox"
    }
  }

  /// Whether its profiles hold Chromium's `Cookies` database
  /// (``ChromiumCookieDatabase``) rather than Firefox's `cookies.sqlite`.
  public var isChromiumBased: Bool { self != .firefox }

  /// The `application` attribute of its "Safe Storage" password in the
  /// Secret Service (`kApplicationName` of Chromium's
  /// `key_storage_libsecret.cc`: `chromium`, or `chrome` for Google's
  /// builds); `nil` for Firefox, which does not encrypt cookies.
  public var keyringApplication: String? {
    switch self {
    case .chromium: "chromium"
    case .chrome: "chrome"
    case .firefox: nil
    }
  }

  /// The folders that hold its profiles, in the order they are searched
  /// (the distribution's package, then Flatpak, then snap).
  ///
  /// - Parameters:
  ///   - home: The home folder (`$HOME`).
  ///   - configHome: `$XDG_CONFIG_HOME`, or `nil` for `home/.config`.
  public func profileRoots(home: String, configHome: String?) -> [String] {
    let config = configHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
    switch self {
    case .chromium:
      return [
        config + "/chromium", home + "/.var/app/org.chromium.Chromium/config/chromium",
        home + "/snap/chromium/common/chromium",
      ]
    case .chrome:
      return [config + "/google-chrome", home + "/.var/app/com.google.Chrome/config/google-chrome"]
    case .firefox:
      return [
        home + "/.mozilla/firefox", home + "/snap/firefox/common/.mozilla/firefox",
        home + "/.var/app/org.mozilla.firefox/.mozilla/firefox",
      ]
    }
  }
}
