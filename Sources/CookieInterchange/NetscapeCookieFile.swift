import CookieCore
import Foundation
import WebsiteDataStore

/// The Netscape `cookies.txt` format, as curl (`-b`, `-c`), wget
/// (`--load-cookies`, `--save-cookies`), yt-dlp and Python's
/// `http.cookiejar.MozillaCookieJar` read and write it
/// (https://curl.se/docs/http-cookies.html).
///
/// One cookie a line, seven fields separated by TAB:
///
///     domain  include-subdomains  path  secure  expiry  name  value
///
/// - `domain` starts with a dot exactly when `include-subdomains` is `TRUE`
///   (a domain cookie); a host-only cookie has neither;
/// - `secure` is `TRUE` or `FALSE`; `expiry` is Unix time in seconds, `0`
///   for a session cookie;
/// - an HttpOnly cookie's line starts with `#HttpOnly_`; other lines starting
///   with `#`, and blank lines, are comments.
///
/// The format has no SameSite, partition key, creation or last-access time:
/// reading sets SameSite unspecified and the times to `now`; writing leaves
/// partitioned cookies out (they would become unpartitioned) and says so.
public enum NetscapeCookieFile {
  /// The first line of a file (Python's `MozillaCookieJar` requires it).
  public static let magicLine = "# Netscape HTTP Cookie File"
  /// The prefix of an HttpOnly cookie's line.
  public static let httpOnlyPrefix = "#HttpOnly_"

  // MARK: - Reading

  /// Reads a `cookies.txt` file. Every line that is not a comment, blank or a
  /// readable cookie becomes an issue (`line N: reason`) and is skipped; the
  /// other lines are still read. CRLF line ends are accepted.
  ///
  /// Compatible with the writers' variants: curl's six-field lines (an empty
  /// value), Python's empty expiry for session cookies, `TRUE`/`FALSE` in any
  /// case, a leading dot without `TRUE` (a host-only cookie, as curl reads it).
  ///
  /// - Parameters:
  ///   - bytes: the file.
  ///   - now: the creation and last-access time of the cookies read.
  ///
  /// The parsing runs outside Swift's cooperative pool (``OffPool``).
  public static func read(_ bytes: [UInt8], now: Date) async -> CookieImportResult {
    await OffPool.run { readNow(bytes, now: now) }
  }

  /// The longest line read, in bytes (1 MiB): a cookie's name and value
  /// together are at most 4096 bytes (RFC 6265bis §5.6), so a longer line
  /// is not a cookie, and a file that is one endless line (`/dev/zero`) is
  /// refused while it is read (``maximumFileSize`` bounds the rest).
  public static let maximumLineLength = 1 << 20

  /// The largest file a reader of untrusted input should take, in bytes
  /// (1 GiB: ten million cookies of 100 bytes). `sitedata cookies import`
  /// stops reading there, so that an endless stdin ends with an error.
  public static let maximumFileSize = 1 << 30

  /// ``read(_:now:)`` on the calling thread.
  private static func readNow(_ bytes: [UInt8], now: Date) -> CookieImportResult {
    var result = CookieImportResult()
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (index, rawLine) in lines.enumerated() {
      var line = rawLine
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      guard line.count <= maximumLineLength else {
        result.issues.append(
          CookieImportIssue(location: "line \(index + 1)", reason: "the line is longer than 1 MiB"))
        continue
      }
      switch readLine(line, now: now) {
      case .none: continue
      case .cookie(let cookie): result.append(cookie, at: "line \(index + 1)")
      case .issue(let reason):
        result.issues.append(CookieImportIssue(location: "line \(index + 1)", reason: reason))
      }
    }
    return result
  }

  private enum LineOutcome {
    case none
    case cookie(Cookie)
    case issue(String)
  }

  private static let fieldNames = "domain, include subdomains, path, secure, expiry, name, value"

  private static func readLine(_ line: ArraySlice<UInt8>, now: Date) -> LineOutcome {
    guard let text = String(validating: line, as: UTF8.self) else {
      return .issue("the line is not valid UTF-8")
    }
    var rest = Substring(text)
    var isHTTPOnly = false
    if rest.hasPrefix(httpOnlyPrefix) {
      isHTTPOnly = true
      rest = rest.dropFirst(httpOnlyPrefix.count)
    } else if rest.first == "#" || rest.allSatisfy({ $0 == " " || $0 == "\t" }) {
      return .none
    }
    var fields = rest.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false)
    if fields.count == 6 { fields.append("") }  // curl: a cookie without a value
    guard fields.count == 7 else {
      return .issue("expected 7 TAB-separated fields (\(fieldNames)); found \(fields.count)")
    }
    var domain = fields[0]
    if domain.first == "." { domain = domain.dropFirst() }
    // wget writes the host-only cookies of a non-default port as `host:port`.
    let port = hostPort(&domain)
    guard !domain.isEmpty else { return .issue("the domain is empty") }
    guard let includesSubdomains = flag(fields[1]) else {
      return .issue("the include-subdomains field (2) is not TRUE or FALSE")
    }
    let path = fields[2]
    guard path.first == "/" else { return .issue("the path (field 3) does not start with '/'") }
    guard let isSecure = flag(fields[3]) else {
      return .issue("the secure field (4) is not TRUE or FALSE")
    }
    let expiry = fields[4]
    var expiresAt: Date?
    if !expiry.isEmpty && expiry != "0" {
      guard let seconds = Int64(expiry) else {
        return .issue("the expiry (field 5) is not a whole number of seconds")
      }
      expiresAt = Date(timeIntervalSince1970: Double(seconds))
    }
    let cookie = Cookie(
      name: String(fields[5]), value: String(fields[6]), domain: domain.lowercased(),
      isHostOnly: !includesSubdomains, path: String(path), expiresAt: expiresAt, createdAt: now,
      lastAccessedAt: now, lastUpdatedAt: now, isSecure: isSecure, isHTTPOnly: isHTTPOnly,
      sameSite: .unspecified, partitionKey: nil, sourceScheme: isSecure ? .secure : .unset,
      sourcePort: port, source: .api)
    return .cookie(cookie)
  }

  /// Removes a `:port` suffix (decimal, 1-65535) from `domain`, as wget
  /// writes it (`www.shop.test:8443`, `[::1]:8080`); returns the port.
  private static func hostPort(_ domain: inout Substring) -> Int? {
    guard let colon = domain.lastIndex(of: ":") else { return nil }
    let digits = domain[domain.index(after: colon)...]
    let host = domain[..<colon]
    // A bare IPv6 address has colons of its own, and no brackets.
    guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ ("0"..."9").contains($0) }),
      let port = Int(digits), (1...65535).contains(port),
      !host.contains(":") || (host.first == "[" && host.last == "]")
    else { return nil }
    domain = host
    return port
  }

  private static func flag(_ field: Substring) -> Bool? {
    switch field.lowercased() {
    case "true": true
    case "false": false
    default: nil
    }
  }

  // MARK: - Writing

  /// A cookie the format cannot hold, left out of a written file.
  public struct Omission: Sendable, CustomStringConvertible {
    /// The cookie.
    public var cookie: Cookie
    /// Why, in plain words.
    public var reason: String

    /// The cookie's name, domain and path and the reason; never the value.
    public var description: String {
      let name = cookie.name.isEmpty ? "<nameless>" : cookie.name
      let domain = (cookie.isHostOnly ? "" : ".") + cookie.domain
      return "'\(name)' (\(domain) path \(cookie.path)): \(reason)"
    }
  }

  /// What ``write(_:)`` produced.
  public struct Output: Sendable {
    /// The file's text: the magic line, a comment, a blank line, then one
    /// line per cookie.
    public var text: String
    /// The cookies left out, in the order given.
    public var omitted: [Omission]
  }

  /// How clients other than curl read the format, where one file cannot
  /// serve them all (tried with each: curl 7.88, wget 1.21, Python 3.11's
  /// `MozillaCookieJar`, yt-dlp).
  public enum Dialect: String, Sendable, CaseIterable {
    /// curl's own (the format's origin), which yt-dlp reads too: session
    /// cookies with expiry `0`, HttpOnly cookies on `#HttpOnly_` lines.
    /// wget skips those lines as comments; Python drops the `0` ones as
    /// expired.
    case curl
    /// For `wget --load-cookies`: HttpOnly cookies on plain lines (the flag
    /// is lost, the cookie is sent), session cookies with expiry `0`.
    case wget
    /// For Python's `http.cookiejar.MozillaCookieJar`: session cookies with
    /// an empty expiry (loaded with `ignore_discard=True`; by default Python
    /// drops every session cookie), HttpOnly on `#HttpOnly_` lines.
    case python
  }

  /// How often the writers report progress: every 10,000 cookies.
  public static let progressInterval = 10_000

  /// Writes `cookies`, in the order given, for `dialect`'s readers.
  /// Partitioned cookies, and cookies with a TAB, CR or LF in a field, are
  /// left out (``Output/omitted``). Expired cookies are written like others:
  /// filter them first. `progress`, when given, is called with the number of
  /// cookies done every ``progressInterval`` cookies and at the end.
  public static func write(
    _ cookies: [Cookie], dialect: Dialect = .curl, progress: ((Int) -> Void)? = nil
  ) -> Output {
    let sessionExpiry = dialect == .python ? "" : "0"
    let writesHTTPOnlyPrefix = dialect != .wget
    let conventions =
      "Expiry is Unix time (\(dialect == .python ? "empty" : "0"): a session cookie); "
      + (writesHTTPOnlyPrefix
        ? "HttpOnly lines start with \(httpOnlyPrefix)." : "HttpOnly is not marked (wget).")
    var text = """
      \(magicLine)
      # Written by sitedata (WebsiteData). Fields: \(fieldNames).
      # \(conventions)


      """
    var omitted: [Omission] = []
    for (index, cookie) in cookies.enumerated() {
      if let progress, index % progressInterval == 0, index > 0 { progress(index) }
      if cookie.partitionKey != nil {
        omitted.append(
          Omission(
            cookie: cookie,
            reason: "partitioned cookies cannot be written in this format (use JSON)"))
        continue
      }
      let fields = [cookie.domain, cookie.path, cookie.name, cookie.value]
      if fields.contains(where: { $0.utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }) {
        omitted.append(
          Omission(cookie: cookie, reason: "a field contains a TAB or line break"))
        continue
      }
      var expiry = sessionExpiry
      if let expiresAt = cookie.expiresAt {
        // Never 0 (a session cookie) for a dated one, however old.
        expiry = String(max(1, Int64(expiresAt.timeIntervalSince1970.rounded(.down))))
      }
      let line = [
        (cookie.isHTTPOnly && writesHTTPOnlyPrefix ? httpOnlyPrefix : "")
          + (cookie.isHostOnly ? "" : ".") + cookie.domain,
        cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
        expiry, cookie.name, cookie.value,
      ]
      text += line.joined(separator: "\t") + "\n"
    }
    progress?(cookies.count)
    return Output(text: text, omitted: omitted)
  }
}
