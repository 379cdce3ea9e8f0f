import Foundation
import WebsiteData

/// The cookie file formats of `cookies import` and `cookies export`.
enum CookieFileFormat: String, CaseIterable {
  /// Netscape `cookies.txt` (curl, wget, yt-dlp): ``NetscapeCookieFile``.
  case netscape
  /// The lossless JSON document: ``JSONCookieFile``.
  case json
  /// Chromium's profile `Cookies` database.
  case chromium
  /// Firefox's `cookies.sqlite`.
  case firefox

  /// Whether the format is a browser's database (a file path, not stdin).
  var isBrowserDatabase: Bool { self == .chromium || self == .firefox }

  /// The format `--format` names.
  ///
  /// - Parameter allowed: the formats the command accepts.
  /// - Throws: a usage error of `command` for another name.
  static func parse<C: Command>(_ name: String, allowed: [CookieFileFormat], of command: C.Type)
    throws(CLIError) -> CookieFileFormat
  {
    guard let format = CookieFileFormat(rawValue: name), allowed.contains(format) else {
      let names = allowed.map(\.rawValue).joined(separator: ", ")
      throw .usage("Unknown format '\(name)' (one of \(names))", of: command)
    }
    return format
  }
}

/// Where the browser database readers plug in (`--format chromium|firefox`).
///
/// The readers, `ChromiumCookieDatabase.read(contentsOf:password:)` and
/// `FirefoxCookieDatabase.read(contentsOf:userContextID:)`, come from the
/// library's `Interchange` folder; this is the one place that calls them.
enum BrowserCookieDatabases {
  /// Reads a browser database.
  ///
  /// - Parameters:
  ///   - password: Chromium's v11 password (the Secret Service one on Linux).
  ///   - container: a Firefox container (`userContextId`); `nil`: all.
  static func read(
    _ format: CookieFileFormat, path: String, password: String?, container: Int?
  ) throws(CLIError) -> CookieImportResult {
    throw .failure(
      "reading \(format.rawValue) cookie databases is not available in this build of sitedata")
  }
}
