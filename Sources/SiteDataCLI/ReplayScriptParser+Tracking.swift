import WebsiteData

extension ReplayScriptParser {
  /// A version 2 tracking prevention directive: `interaction <site>`,
  /// `grant <embedded> <top-level>`, `revoke <embedded> [<top-level>]`,
  /// `tracking on|off`, `run-tracking-prevention [dry-run]`,
  /// `expect-prevalent <site>`, `expect-not-prevalent <site>`,
  /// `expect-removed <site>`, `expect-not-removed <site>`. A site is a URL
  /// or a domain, as `sitedata tracking` takes them.
  static func trackingDirective(
    _ keyword: Keyword, _ arguments: [Substring], fail: (String) -> ReplayScriptError,
    parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) -> ReplayScript.Directive {
    func site(_ index: Int) throws(ReplayScriptError) -> URLRecord {
      try Self.site(arguments[index], fail: fail, parseURL: parseURL)
    }
    func count(_ range: ClosedRange<Int>, _ usage: String) throws(ReplayScriptError) {
      guard range.contains(arguments.count) else { throw fail("needs \(usage)") }
    }
    switch keyword {
    case .interaction:
      try count(1...1, "one site (a URL or a domain)")
      return .interaction(site: try site(0))
    case .grant:
      try count(2...2, "the embedded site and the top-level site (URLs or domains)")
      return .grant(embedded: try site(0), topLevel: try site(1))
    case .revoke:
      try count(1...2, "the embedded site, and optionally the top-level site (URLs or domains)")
      return .revoke(embedded: try site(0), topLevel: arguments.count == 2 ? try site(1) : nil)
    case .tracking:
      guard arguments.count == 1, arguments[0] == "on" || arguments[0] == "off" else {
        throw fail("needs 'on' or 'off'")
      }
      return .tracking(isEnabled: arguments[0] == "on")
    case .runTrackingPrevention:
      guard arguments.isEmpty || (arguments.count == 1 && arguments[0] == "dry-run") else {
        throw fail("takes nothing, or 'dry-run'")
      }
      return .runTrackingPrevention(dryRun: !arguments.isEmpty)
    case .expectPrevalent, .expectNotPrevalent:
      try count(1...1, "one site (a URL or a domain)")
      return .expectPrevalent(site: try site(0), isPrevalent: keyword == .expectPrevalent)
    case .expectRemoved, .expectNotRemoved:
      try count(1...1, "one site (a URL or a domain)")
      return .expectRemoved(site: try site(0), isRemoved: keyword == .expectRemoved)
    case .version, .now, .advance, .policy, .response, .request, .expect:
      // Parsed by directive(_:line:parseURL:), never passed here.
      throw fail("is not a tracking prevention directive")
    }
  }

  /// A site argument: an http(s) URL, or a domain (`tracker.example`, read
  /// as `https://tracker.example/`).
  private static func site(
    _ text: Substring, fail: (String) -> ReplayScriptError,
    parseURL: (String) throws(URLParseError) -> URLRecord
  ) throws(ReplayScriptError) -> URLRecord {
    let full = text.contains("://") ? String(text) : "https://\(text)/"
    guard let url = try? parseURL(full), url.scheme == "http" || url.scheme == "https",
      !url.host.serialized.isEmpty
    else {
      throw fail("'\(text)' is not a URL or a domain")
    }
    return url
  }
}
