import WebsiteData

/// `sitedata replay FILE`: runs a cookie replay script against a fresh
/// in-memory store with a simulated clock (see ``ReplayScript``).
enum ReplayCommand: Command {
  static let name = "replay"
  static let abstract = "Run a cookie replay script against a fresh in-memory store."
  static let usage = "sitedata replay [--policy <name>] [--explain] <file>"

  static var discussion: String {
    let defaultPolicy = CookieJarConfiguration.browser.thirdPartyPolicy
    let policies = ThirdPartyCookiePolicy.allCases.map { policy in
      String(repeating: " ", count: 26) + policy.rawValue
        + (policy == defaultPolicy ? " (the default)" : "")
    }
    return """
      ARGUMENTS:
        <file>                  The script; '-' reads it from stdin.

      OPTIONS:
        --policy <name>         The third-party cookie policy at the start
                                (default: \(defaultPolicy)).
        --explain               After each request, list on stderr every cookie of
                                the site that was not sent, with the reasons; after
                                each response, every Set-Cookie line rejected.
        -h, --help              Show this help.

      A replay script simulates a browser: responses set cookies, requests
      show which cookies would be sent. It runs with a fresh store that keeps
      nothing, the browser's rules (\(defaultPolicy),
      SameSite Lax by default) and a simulated clock that starts at
      \(ReplayTime.initialTimeText) and moves only when the script says.

      SCRIPT FORMAT:
        One directive a line; lines end at LF. Blank lines and lines starting
        with '#' are ignored; leading blanks are allowed.

        now <time>              Set the clock: RFC 3339, like 2026-01-01T00:00:00Z.
        advance <duration>      Move the clock forward: a whole number and a unit
                                s, m, h or d, like 90s.
        policy <name>           Switch the third-party cookie policy, one of:
      \(policies.joined(separator: "\n"))
        response <request>      A response to <request>; its header lines follow
                                ('Set-Cookie: <value>', applied in order; other
                                header names are ignored) up to the next directive
                                or blank line. Names are case-insensitive; values
                                are taken byte for byte, without the blanks
                                around them.
        request <request>       Print the Cookie header the request would carry,
                                one line on stdout (an empty line when none).
        expect [<value>]        The Cookie header of the preceding request must be
                                exactly <value>; a bare 'expect': no header at all.

        <request> is <url> [nav|sub] [site=<url>] [from=<url>] [method=<M>]:
          nav                   A top-level navigation to <url> (the default): the
                                top-level site is <url>'s own.
          sub                   A subresource of the page at site=<url> (required).
          from=<url>            The page that started the request. A navigation
                                without it is browser-initiated (typed, bookmark);
                                a subresource's defaults to site=.
          method=<M>            The HTTP method (default GET).

      EXIT STATUS:
        0   every expectation held
        1   an expectation failed (each reported as FILE:LINE on stderr), or the
            file cannot be read
        2   the script is malformed (reported as FILE:LINE; nothing is run)
        64  usage error

      EXAMPLE:
        response https://www.example.com/
        Set-Cookie: id=1; Path=/; Max-Age=60
        request https://www.example.com/
        expect id=1
        advance 60s
        request https://www.example.com/
        expect

      """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: [.value("policy"), .flag("explain")], of: Self.self)
    guard let path = parsed.positionals.first else {
      throw .usage("Missing expected argument '<file>'", of: Self.self)
    }
    guard parsed.positionals.count == 1 else {
      throw .usage("Unexpected argument '\(parsed.positionals[1])'", of: Self.self)
    }
    var configuration = CookieJarConfiguration.browser
    if let name = parsed.values["policy"] {
      guard let policy = ThirdPartyCookiePolicy(rawValue: name) else {
        let names = ThirdPartyCookiePolicy.allCases.map(\.rawValue).joined(separator: ", ")
        throw .usage("Unknown policy '\(name)' (one of \(names))", of: Self.self)
      }
      configuration.thirdPartyPolicy = policy
    }

    let bytes = try InputFile.readAll(
      path,
      limits: InputFile.Limits(
        bytes: ReplayScript.maximumSize, lineBytes: ReplayScript.maximumLineLength,
        kind: "a replay script"))
    let scriptName = InputFile.displayName(path)
    let clock = ManualStoreClock(ReplayTime.initialTime)
    let store = WebsiteDataStore.nonPersistent(configuration: configuration, clock: clock)
    let script: ReplayScript
    do {
      script = try ReplayScript(parsing: bytes) {
        (string: String) throws(URLParseError) -> URLRecord in try store.url(string)
      }
    } catch {
      throw .malformedInput("\(scriptName):\(error.line): \(error.reason)")
    }
    let runner = ReplayRunner(
      script: script, store: store, clock: clock, scriptName: scriptName,
      explain: parsed.flags.contains("explain"))
    return try await runner.run()
  }
}
