import TextFormats
import WebsiteData

/// `sitedata cookies get URL`: the Cookie header a request would carry and,
/// with `--explain`, why every other cookie of the site would not be sent.
enum CookiesGetCommand: Command {
  static let name = "get"
  static let fullName = "cookies get"
  static let abstract = "Show the Cookie header a request would carry, and explain it."
  static let usage =
    "sitedata cookies get <url> [--sub --site <url>] [--from <url>] [--method <method>]"
    + " [--explain] [--json] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   The request URL.

    OPTIONS:
    \(RequestOptions.help)
      --explain               Also list the cookies sent and every other cookie of
                              the site with the reasons it would not be sent.
      --json                  Print one JSON object: the header, the cookies sent
                              and those not sent with their reasons.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    The first line of the output is the Cookie header value (an empty line when
    no cookie would be sent). Looking up cookies counts as using them: their
    last-access time is updated and expired cookies are dropped, as a browser
    would.

    EXAMPLES:
      sitedata cookies get https://www.example.com/account --explain
      sitedata cookies get https://cdn.example.net/pixel.gif --sub \\
          --site https://news.example/

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments,
      options: StoreOptions.options() + RequestOptions.options + [
        .flag("explain"), .flag("json"),
      ], of: Self.self)
    let url = try parsed.positionals(["<url>"], of: Self.self)[0]
    let options = try await StoreOptions(parsed, of: Self.self)
    let opened = try await options.open(create: false)
    let store = opened ?? .nonPersistent()
    let context = try RequestOptions.context(url: url, parsed, store: store, of: Self.self)
    let explain = parsed.flags.contains("explain")
    let json = parsed.flags.contains("json")
    let result = await store.httpCookieStore.cookies(for: context, explain: explain || json)
    await opened?.flush()
    if json {
      Console.out(document(result, url: context.url).serialized() + "\n")
      return .success
    }
    Console.out((result.header ?? "") + "\n")
    guard explain else { return .success }
    let configuration = await store.httpCookieStore.configuration
    let graced = laxAllowingUnsafeGrace(
      result, context: context, configuration: configuration,
      facts: store.httpCookieStore.domainFacts)
    let window = Int(configuration.laxAllowingUnsafeWindowSeconds)
    Console.out(result.included.isEmpty ? "sent: none\n" : "sent:\n")
    for cookie in result.included {
      let note =
        graced.contains(cookie.identity)
        ? " (only because it was set less than \(window) s ago: the Lax-allowing-unsafe"
          + " grace of a cross-site top-level POST)" : ""
      Console.out("  \(CookieText.identity(cookie))\(note)\n")
    }
    if let exemption = result.exemption {
      Console.out(
        "exemption: \(exemption.rawValue) (third-party blocking lifted for this top-level site)\n")
    }
    Console.out(result.excluded.isEmpty ? "not sent: none\n" : "not sent:\n")
    for exclusion in result.excluded {
      Console.out(
        "  \(CookieText.identity(exclusion.cookie)): \(CookieText.reasons(exclusion.status))\n")
    }
    return .success
  }

  /// The cookies sent only by the Lax-allowing-unsafe grace (RFC 6265bis
  /// §5.8.3 step 2, Chromium's `WARN_SAMESITE_UNSPECIFIED_LAX_ALLOW_UNSAFE`):
  /// in a cross-site top-level navigation with an unsafe method, a cookie
  /// without SameSite is sent under lax-by-default enforcement only within
  /// the window after its creation, so every such cookie the lookup sent was
  /// sent by it.
  private static func laxAllowingUnsafeGrace(
    _ result: CookieLookupResult, context: CookieRequestContext,
    configuration: CookieJarConfiguration, facts: any DomainFacts
  ) -> Set<CookieIdentity> {
    let sites = ContextSites(context, facts: facts)
    guard sites.forRequest == .laxMethodUnsafe, configuration.sameSiteEnforcement == .laxByDefault
    else { return [] }
    return Set(result.included.filter { $0.sameSite == .unspecified }.map(\.identity))
  }

  /// `{"url", "header", "sent": [cookie], "notSent": [{"cookie", "reasons"}]}`.
  private static func document(_ result: CookieLookupResult, url: URLRecord) -> JSONValue {
    .object([
      ("url", .string(url.serialized)),
      ("header", .string(result.header)),
      ("sent", .array(result.included.map(JSONCookieFile.object(for:)))),
      ("exemption", .string(result.exemption?.rawValue)),
      (
        "notSent",
        .array(
          result.excluded.map { exclusion in
            .object([
              ("cookie", JSONCookieFile.object(for: exclusion.cookie)),
              ("reasons", CookieText.reasonsJSON(exclusion.status)),
            ])
          })
      ),
    ])
  }
}
