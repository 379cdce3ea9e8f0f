import WebsiteData

/// A request as a user describes it: its URL, whether it is a top-level
/// navigation or a subresource, the top-level page, the page that started it
/// and the method. One set of rules turns it into a ``CookieRequestContext``
/// for replay scripts (`request <url> sub site=<url>`) and for
/// `cookies get` / `cookies set` (`<url> --sub --site <url>`).
struct RequestDescription {
  /// How one surface spells the parts, for messages.
  struct Spelling {
    /// The top-level page option (`'site='`, `--site`).
    var site: String
    /// The same with its value (`'site=<url>'`, `--site <url>`).
    var siteWithValue: String
    /// The subresource marker (`'sub'`, `--sub`).
    var sub: String
    /// The initiator option (`'from='`, `--from`).
    var from: String

    /// Replay scripts: `nav|sub site= from= method=`.
    static let replay = Spelling(
      site: "'site='", siteWithValue: "'site=<url>'", sub: "'sub'", from: "'from='")
    /// Command-line options: `--sub --site --from --method`.
    static let options = Spelling(
      site: "--site", siteWithValue: "--site <url>", sub: "--sub", from: "--from")
  }

  /// The request URL.
  var url: String
  /// A subresource of the page at ``site`` (otherwise a navigation).
  var isSubresource = false
  /// The top-level page of a subresource.
  var site: String?
  /// The page that started the request; none for a browser-initiated
  /// navigation, the top-level page for a subresource.
  var initiator: String?
  /// The HTTP method (default GET).
  var method: String?

  /// The context the description stands for.
  ///
  /// - Parameters:
  ///   - spelling: how messages name the parts.
  ///   - parseURL: the store's URL parser.
  /// - Throws: ``RequestDescriptionError`` for an invalid URL or method, a
  ///   navigation with a top-level site, a subresource without one.
  func context(
    spelling: Spelling, parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(RequestDescriptionError) -> CookieRequestContext {
    func parse(_ string: String) throws(RequestDescriptionError) -> URLRecord {
      do {
        return try parseURL(string)
      } catch {
        throw RequestDescriptionError(message: "'\(string)' is not a valid URL: \(error.message)")
      }
    }
    let target = try parse(url)
    let topLevel = try site.map { (string: String) throws(RequestDescriptionError) in
      try parse(string)
    }
    let from = try initiator.map { (string: String) throws(RequestDescriptionError) in
      try parse(string)
    }
    if let method {
      guard !method.isEmpty, method.utf8.allSatisfy(ASCII.isTokenCharacter) else {
        throw RequestDescriptionError(message: "'\(method)' is not an HTTP method")
      }
    }
    guard isSubresource else {
      if topLevel != nil {
        throw RequestDescriptionError(
          message: "\(spelling.site) is only for \(spelling.sub): a navigation's top-level site"
            + " is its own URL (use \(spelling.from) for the page that started it)")
      }
      return .navigation(to: target, initiator: from, method: method ?? "GET")
    }
    guard let topLevel else {
      throw RequestDescriptionError(
        message: "\(spelling.sub) needs \(spelling.siteWithValue), the URL of the top-level page")
    }
    return .subresource(target, topLevel: topLevel, initiator: from, method: method ?? "GET")
  }
}

/// Why a ``RequestDescription`` is not a request.
struct RequestDescriptionError: Error {
  /// What is wrong, for humans.
  var message: String
}
