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

/// The browser database readers (`--format chromium|firefox`):
/// ``ChromiumCookieDatabase`` and ``FirefoxCookieDatabase`` from the
/// library's `Interchange` folder. They block (file copy, SQLite,
/// decryption), so they run on a thread of their own, off Swift's
/// cooperative pool.
enum BrowserCookieDatabases {
  /// Reads a browser database.
  ///
  /// - Parameters:
  ///   - password: where Chromium's v11 password comes from (the
  ///     "Chromium Safe Storage" one of the keyring): ``ChromiumPassword``.
  ///   - container: a Firefox container (`userContextId`); `nil`: the default
  ///     jar (0).
  /// - Throws: malformed input when the file is not such a database (or is
  ///   damaged, or newer than the reader knows), a failure for anything
  ///   else (a missing file, a wrong password); each names the file and the
  ///   reason, never a value.
  static func read(
    _ format: CookieFileFormat, path: String, password: ChromiumCookieDatabase.PasswordSource,
    container: Int?
  ) async throws(CLIError) -> CookieImportResult {
    do {
      switch format {
      case .chromium:
        return try await ChromiumCookieDatabase.read(contentsOf: path, password: password)
      default:
        return try await FirefoxCookieDatabase.read(contentsOf: path, userContextID: container)
      }
    } catch let error as WebsiteDataStoreError
      where error.code == .corrupt || error.code == .newerSchema
    {
      throw .malformedInput("\(path): \(error)")
    } catch {
      throw .failure("\(path): \(error)")
    }
  }

  /// The Firefox containers with cookies other than `container` (default 0),
  /// for a note after an import; empty when they cannot be read.
  static func otherFirefoxContainers(_ path: String, container: Int?) async -> [Int] {
    ((try? await FirefoxCookieDatabase.containers(contentsOf: path)) ?? [])
      .map(\.userContextID).filter { $0 != (container ?? 0) }
  }
}
