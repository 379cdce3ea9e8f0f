import Foundation
import WebsiteDataStore

/// A browser profile with a cookie database, as
/// ``profiles(of:home:environment:)`` finds it on disk.
public struct BrowserProfile: Sendable, Hashable {
  /// The browser.
  public var browser: WebBrowser
  /// The profile's name: the one the browser shows (Chromium's
  /// `Local State`, Firefox's `profiles.ini`), else its folder's name.
  public var name: String
  /// The profile folder.
  public var folder: String
  /// Its cookie database (``cookieDatabase(inFolder:)``).
  public var database: String
  /// Whether the browser opens this profile by default: Chromium's last
  /// used profile (`profile.last_used`, else `Default`); Firefox's
  /// installation default (`[Install…] Default`, else the profile marked
  /// `Default=1`).
  public var isDefault: Bool

  /// Creates a profile.
  public init(
    browser: WebBrowser, name: String, folder: String, database: String, isDefault: Bool
  ) {
    self.browser = browser
    self.name = name
    self.folder = folder
    self.database = database
    self.isDefault = isDefault
  }

  /// The cookie database inside a profile folder: Chromium's
  /// `Network/Cookies` (where Chromium 96 and later keep it) or `Cookies`,
  /// or Firefox's `cookies.sqlite`; `nil` when the folder has none (a
  /// regular file).
  public static func cookieDatabase(inFolder folder: String) -> String? {
    ["Network/Cookies", "Cookies", "cookies.sqlite"].map { folder + "/" + $0 }.first {
      (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType)
        == .typeRegular
    }
  }

  /// Every profile of `browser` that has a cookie database, in each of
  /// ``WebBrowser/profileRoots(home:configHome:)`` in turn; in each, the
  /// default first, then by folder name.
  ///
  /// - Parameters:
  ///   - home: The home folder; `nil`: `$HOME` of `environment`.
  ///   - environment: Where `HOME` and `XDG_CONFIG_HOME` are read.
  public static func profiles(
    of browser: WebBrowser, home: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [BrowserProfile] {
    guard let home = home ?? environment["HOME"], !home.isEmpty else { return [] }
    return browser.profileRoots(home: home, configHome: environment["XDG_CONFIG_HOME"])
      .flatMap { root in
        let found =
          browser.isChromiumBased
          ? chromiumProfiles(in: root, browser: browser) : firefoxProfiles(in: root)
        return found.sorted {
          ($0.isDefault ? 0 : 1, $0.folder) < ($1.isDefault ? 0 : 1, $1.folder)
        }
      }
  }

  /// The profile `name` of `browser`, or its default.
  ///
  /// - Parameters:
  ///   - name: A profile's name, its folder's name, or a path to a profile
  ///     folder (a name with a `/`); `nil`: the first default profile,
  ///     else (no profile is marked) the one whose database changed last.
  /// - Throws: ``WebsiteDataStoreError/Code/notFound`` when there is no
  ///   such profile (the message lists those there are, and where they were
  ///   looked for).
  public static func profile(
    of browser: WebBrowser, named name: String?, home: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> BrowserProfile {
    if let name, name.contains("/") {
      guard let database = cookieDatabase(inFolder: name) else {
        throw WebsiteDataStoreError(
          .notFound, "\(name) is not a \(browser.displayName) profile folder with a cookie database"
        )
      }
      let folder = URL(fileURLWithPath: name).standardizedFileURL.path
      return BrowserProfile(
        browser: browser, name: (folder as NSString).lastPathComponent, folder: folder,
        database: database, isDefault: false)
    }
    let all = profiles(of: browser, home: home, environment: environment)
    if let name {
      if let match = all.first(where: {
        $0.name == name || ($0.folder as NSString).lastPathComponent == name
      }) {
        return match
      }
      let known = all.map { "'\($0.name)'" }.joined(separator: ", ")
      throw WebsiteDataStoreError(
        .notFound,
        "no \(browser.displayName) profile named '\(name)'"
          + (all.isEmpty ? "" : " (profiles: \(known))"))
    }
    if let chosen = all.first(where: \.isDefault) ?? all.max(by: { modified($0) < modified($1) }) {
      return chosen
    }
    let roots = browser.profileRoots(
      home: home ?? environment["HOME"] ?? "~", configHome: environment["XDG_CONFIG_HOME"])
    throw WebsiteDataStoreError(
      .notFound,
      "no \(browser.displayName) profile with cookies in \(roots.joined(separator: ", "))")
  }

  /// When the profile's database was last modified.
  private static func modified(_ profile: BrowserProfile) -> Date {
    (try? FileManager.default.attributesOfItem(atPath: profile.database)[.modificationDate]
      as? Date) ?? .distantPast
  }

  /// The folders directly inside `root`.
  static func subfolders(of root: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted().filter {
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isFolder)
        && isFolder.boolValue
    }
  }
}
