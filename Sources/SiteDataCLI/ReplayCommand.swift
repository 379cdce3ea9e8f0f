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
                                the site that was not sent, with the reasons (and
                                a storage access grant that let cookies through);
                                after each response, every Set-Cookie line
                                rejected, and every cookie whose life was capped.
        -h, --help              Show this help.

      A replay script simulates a browser: responses set cookies, requests
      show which cookies would be sent. It runs with a fresh store that keeps
      nothing, the browser's rules (\(defaultPolicy),
      SameSite Lax by default) and a simulated clock that starts at
      \(ReplayTime.initialTimeText) and moves only when the script says.

      SCRIPT FORMAT:
        One directive a line; lines end at LF. Blank lines and lines starting
        with '#' are ignored; leading blanks are allowed.

        version 1|2             Optional, the first directive: the format
                                version (1 without it; see VERSION 2 below).

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

      VERSION 2 (TRACKING PREVENTION):
        A script whose first directive is 'version 2' also drives the store's
        tracking prevention (WebKit's rules, on at the start), on the same
        clock; 'version 1', or no 'version' line, is the format above. In a
        version 2 script every 'sub' or 'frame' hop to another site than
        site= is recorded as a third-party load, as the loader does, and:

        <request> also takes:
          frame                 A subresource that is a frame's document
                                (counted as a frame under site=).
          chain=<url>,<url>...  The earlier URLs of the hop's redirect chain,
                                oldest first: the redirects between them and
                                <url> are recorded; for a navigation, so is a
                                bounce through each site in the middle of the
                                chain (not from='s, not <url>'s, not the first
                                URL without from=) that holds cookies.
          source=script         Cookies read and written by a script
                                (document.cookie) of the document at <url>:
                                no from=, method= or chain=; what it writes
                                lives 7 days at most.

        interaction <site>      A user interaction with <site> as a top-level
                                site (a URL or a domain, here and below).
        grant <embedded> <top>  <embedded> asks for storage access under <top>;
                                a refusal (no interaction with <embedded> in 30
                                days) is reported like a failed expect.
        revoke <embedded> [<top>]
                                Ends <embedded>'s grants (under <top> only).
        tracking on|off         Switch tracking prevention.
        run-tracking-prevention [dry-run]
                                Website data removal: prints 'removed DOMAIN:
                                REASON' for each site whose data went ('would
                                remove' for dry-run, which changes nothing), or
                                'removed nothing'. At most once an hour.
        expect-prevalent <site>, expect-not-prevalent <site>
                                <site> is (not) classified as a tracker.
        expect-removed <site>, expect-not-removed <site>
                                The last run-tracking-prevention removed (or
                                would remove) <site>'s data (or did not).

        Operating days (data removal's 30-day window) are the days on which
        something was recorded: a third-party load, a redirect, a bounce, an
        interaction; days 'advance' skips do not count.

      EXIT STATUS:
        0   every expectation held
        1   an expectation failed (each reported as FILE:LINE on stderr), a
            grant was refused, or the file cannot be read
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
