import CookieCore
import WebsiteDataStore

/// What a cookie-file reader (Netscape `cookies.txt`, JSON, Chromium's
/// `Cookies` database, Firefox's `cookies.sqlite`) made of a file: the cookies
/// it could read, and one ``CookieImportIssue`` for every line or row it could
/// not. A bad line never stops the rest of the file from being read.
///
/// The cookies are not yet stored: the caller hands them to
/// ``HTTPCookieStore/importCookies(_:)``, which may still reject some of them
/// (with reasons) under the store's rules.
public struct CookieImportResult: Sendable {
  /// The cookies read, in file order.
  public private(set) var cookies: [Cookie]
  /// Where each of ``cookies`` was read, in the same order (`line 12`,
  /// `cookies[3]`, `row 34`): the place an import names when the store
  /// refuses the cookie.
  public private(set) var locations: [String]
  /// The lines or rows skipped, in file order.
  public var issues: [CookieImportIssue]

  /// A result of `cookies`, read at `locations` (one each; by default their
  /// index, `cookies[N]`), and `issues`.
  public init(
    cookies: [Cookie] = [], locations: [String]? = nil, issues: [CookieImportIssue] = []
  ) {
    precondition(locations == nil || locations?.count == cookies.count, "one location a cookie")
    self.cookies = cookies
    self.locations = locations ?? cookies.indices.map { "cookies[\($0)]" }
    self.issues = issues
  }

  /// Adds a cookie read at `location`.
  public mutating func append(_ cookie: Cookie, at location: String) {
    cookies.append(cookie)
    locations.append(location)
  }

  /// The result with only the cookies `filter` matches (each with its
  /// location), and every issue.
  public func filtered(by filter: CookieFilter) -> CookieImportResult {
    let kept = cookies.indices.filter { filter.matches(cookies[$0]) }
    return CookieImportResult(
      cookies: kept.map { cookies[$0] }, locations: kept.map { locations[$0] }, issues: issues)
  }
}

/// One line or row of a cookie file that could not be read. Its description
/// names the place and the reason, never a cookie value.
public struct CookieImportIssue: Sendable, Hashable, CustomStringConvertible {
  /// Where: `line 12` for text formats, `row 34` (the database row id) for
  /// browser databases.
  public var location: String
  /// Why, in plain words.
  public var reason: String

  public init(location: String, reason: String) {
    self.location = location
    self.reason = reason
  }

  public var description: String { "\(location): \(reason)" }
}
