import WebsiteData

extension ReplayScriptParser {
  /// The hop of a `response` or `request` line: `<url> [nav|sub]
  /// [site=<url>] [from=<url>] [method=<M>]`, and in version 2 also `frame`,
  /// `chain=<url>,<url>...` and `source=http|script`; `nil` when the URL's
  /// scheme never gets cookies (a well-formed URL of a scheme the cookie
  /// engine does not handle: `ftp:`, `file:`, `data:`, `blob:`...).
  ///
  /// `chain=` lists the earlier URLs of the hop's redirect chain, oldest
  /// first, separated by commas (a comma inside one of them is written
  /// `%2C`); each is an http or https URL. `source=script` makes the hop a
  /// script's (`document.cookie`) of the document at the URL, under the
  /// page at `site=` for `sub` and `frame`: it takes no `from=`, `method=`
  /// or `chain=`.
  static func hop(
    _ arguments: [Substring], version: Int, fail: (String) -> ReplayScriptError,
    parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) -> ReplayScript.Hop? {
    let usage =
      version >= 2
      ? "<url> [nav|sub|frame] [site=<url>] [from=<url>] [method=<M>] [chain=<url>,...]"
        + " [source=http|script]"
      : "<url> [nav|sub] [site=<url>] [from=<url>] [method=<M>]"
    let kinds = ["nav", "sub", "frame"]
    let keys = ["site=", "from=", "method=", "chain=", "source="]
    guard let first = arguments.first else { throw fail("needs a URL: \(usage)") }
    if kinds.contains(String(first)) || keys.contains(where: { first.hasPrefix($0) }) {
      throw fail("the URL comes first: \(usage)")
    }
    var request = RequestDescription(url: String(first))
    var kind: String?
    var chain: [String]?
    var source: String?
    for argument in arguments.dropFirst() {
      if kinds.contains(String(argument)) {
        if argument == "frame" && version < 2 { throw fail("'frame' \(needsVersion2)") }
        guard kind == nil else {
          throw fail(
            version >= 2 ? "'nav', 'sub' or 'frame' given twice" : "'nav' or 'sub' given twice")
        }
        kind = String(argument)
        request.isSubresource = argument != "nav"
        continue
      }
      guard let equals = argument.firstIndex(of: "=") else {
        throw fail("unknown argument '\(argument)' (expected \(usage))")
      }
      let key = argument[..<equals]
      let value = String(argument[argument.index(after: equals)...])
      if (key == "chain" || key == "source") && version < 2 {
        throw fail("'\(key)=' \(needsVersion2)")
      }
      switch key {
      case "site":
        guard request.site == nil else { throw fail("'site=' given twice") }
        request.site = value
      case "from":
        guard request.initiator == nil else { throw fail("'from=' given twice") }
        request.initiator = value
      case "method":
        guard request.method == nil else { throw fail("'method=' given twice") }
        request.method = value
      case "chain":
        guard chain == nil else { throw fail("'chain=' given twice") }
        chain = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      case "source":
        guard source == nil else { throw fail("'source=' given twice") }
        guard value == "http" || value == "script" else {
          throw fail("unknown source '\(value)' (one of http, script)")
        }
        source = value
      default:
        throw fail("unknown argument '\(argument)' (expected \(usage))")
      }
    }
    let isScript = source == "script"
    if isScript && (request.initiator != nil || request.method != nil || chain != nil) {
      throw fail(
        "'source=script' takes no 'from=', 'method=' or 'chain=' (a script reads and writes"
          + " the cookies of its own document)")
    }
    let redirectChain = try chain.map { urls throws(ReplayScriptError) in
      try Self.chain(urls, fail: fail, parseURL: parseURL)
    }
    do {
      _ = try parseURL(request.url)
    } catch  where error.code == .unsupportedScheme {
      return nil
    } catch {
      // Reported below, with the other parts.
    }
    let spelling = Self.spelling(kind: kind ?? "nav", version: version)
    var context: CookieRequestContext
    do {
      context = try request.context(spelling: spelling, parseURL: parseURL)
    } catch {
      throw fail(error.message)
    }
    if isScript {
      context = .script(
        document: context.url, topLevel: context.kind == .navigation ? nil : context.topLevelURL)
    } else if let redirectChain {
      context.redirectChain = redirectChain
    }
    return ReplayScript.Hop(context: context, isFrame: kind == "frame")
  }

  /// The URLs of a `chain=` value.
  private static func chain(
    _ urls: [String], fail: (String) -> ReplayScriptError,
    parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) -> [URLRecord] {
    var chain: [URLRecord] = []
    for text in urls {
      guard !text.isEmpty else {
        throw fail(
          "'chain=' needs URLs separated by commas, like chain=https://a.test/,https://b.test/")
      }
      let url: URLRecord
      let notHTTP = fail("'chain=': '\(text)' is not an http or https URL")
      do {
        url = try parseURL(text)
      } catch  where error.code == .unsupportedScheme {
        throw notHTTP
      } catch {
        throw fail("'chain=': '\(text)' is not a valid URL: \(error.message)")
      }
      guard url.scheme == "http" || url.scheme == "https" else { throw notHTTP }
      chain.append(url)
    }
    return chain
  }

  /// How messages name the parts for a line of this kind.
  private static func spelling(kind: String, version: Int) -> RequestDescription.Spelling {
    let sub =
      switch kind {
      case "frame": "'frame'"
      case "nav" where version >= 2: "'sub' or 'frame'"
      default: "'sub'"
      }
    return RequestDescription.Spelling(
      site: "'site='", siteWithValue: "'site=<url>'", sub: sub, from: "'from='")
  }
}
