import CookieCore

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
  public var cookies: [Cookie]
  /// The lines or rows skipped, in file order.
  public var issues: [CookieImportIssue]

  public init(cookies: [Cookie] = [], issues: [CookieImportIssue] = []) {
    self.cookies = cookies
    self.issues = issues
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
