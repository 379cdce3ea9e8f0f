import WebsiteData

/// `sitedata fetch URL`: loads a page as a headless browser would, with the
/// store's cookies, and says what came back (and, with `-v`, what every hop
/// sent and set).
enum FetchCommand: Command {
  static let name = "fetch"
  static let abstract = "Load a page with the store's cookies, as a browser would."
  static let usage =
    "sitedata fetch <url> [-v | --json] [--ephemeral] [--user-agent <ua>]"
    + " [--resolve <host:port:address>]... [--header <'Name: value'>]... [--data <body>]"
    + " [<options>] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   The http or https URL of the page.

    OPTIONS:
    \(FetchOptions.help)
    \(StoreOptions.optionsHelp(ephemeral: true))
      -h, --help              Show this help.

    The page is loaded with the store's cookies (and HSTS entries) on every hop
    of its redirect chain, with the rules of a browser (SameSite, Secure,
    prefixes, third-party policies); what the responses set is kept in the
    store. Subresources are not loaded unless --subresources is given; no
    JavaScript runs. Prints the status, the final URL and the title. Without a
    store option the default store is used (see 'sitedata help'), so cookies
    carry over between runs; with --ephemeral nothing is read from or written
    to disk.

    Cookie values are printed only with -v and --json (they are yours), never
    in error messages.

    With -o the final response body is written to a file (or to stdout with
    '-o -', the report then going to stderr); -i and -D add the response heads
    as curl writes them. --no-follow (or --max-redirects 0) makes a redirect
    response the result; --stop-at ends the fetch before requesting a URL that
    starts with the given prefix, and says which.

    EXIT STATUS:
      0   the page loaded, whatever its HTTP status (a 404 page is a page), or
          the fetch stopped before a --stop-at URL
      1   the page could not be loaded (no connection, TLS, too many
          redirects...: the reason is on stderr), or the store failed
      64  usage error (a bad URL, --resolve or --header)

    EXAMPLES:
      sitedata fetch https://example.org/
      sitedata fetch -o page.html -D head.txt https://example.org/
      sitedata fetch --no-follow https://example.org/old-path
      sitedata fetch --stop-at http://127.0.0.1:8400/callback \\
          'https://login.example.org/authorize?client_id=app&response_type=code'
      sitedata fetch --ephemeral --user-agent 'Example/1.0' https://example.org/
      sitedata fetch -v https://example.org/login --data 'user=me'
      sitedata fetch --resolve example.org:443:127.0.0.1 --cacert ca.pem \\
          https://example.org/ --json

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options(ephemeral: true) + FetchOptions.options,
      of: Self.self)
    let url = try parsed.positionals(["<url>"], of: Self.self)[0]
    let fetch = try FetchOptions(url: url, parsed, of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    guard let store = try await options.open(create: true) else {
      throw .failure("cannot open \(options.displayName)")
    }
    if fetch.isInsecure {
      Console.error(
        "Warning: --insecure: TLS certificates are not checked; anyone on the path can read"
          + " and change this traffic, cookies included.\n")
    }
    // With the body on stdout, the report goes to stderr (-v) or is left out.
    let toStderr = fetch.bodyGoesToStdout
    let write = { (text: String) in toStderr ? Console.error(text) : Console.out(text) }
    let report =
      await fetch.verbose
      ? FetchLiveReport(method: fetch.method, url: fetch.url, write: write) : nil
    let outcome = await FetchOutcome.load(fetch, store: store, report: report)
    await store.flush()
    if fetch.json {
      Console.out(outcome.document(FetchStep.steps(of: outcome)).serialized() + "\n")
    } else {
      await report?.finish(outcome)
      if fetch.includesHeads && fetch.output == nil { Console.out(FetchOutput.heads(of: outcome)) }
      if !fetch.bodyGoesToStdout {
        Console.out(summary(outcome))
      } else if let stoppedAt = outcome.stoppedAt {
        Console.error("stopped at: \(stoppedAt.absoluteString)\n")
      }
    }
    try FetchOutput.write(outcome, fetch)
    if outcome.hops.contains(where: { $0.cookieStoreError != nil }) {
      Console.error("Warning: the store could not save some cookies (see -v).\n")
    }
    if let error = outcome.error { throw .failure(FetchFailureText.message(error)) }
    return .success
  }

  /// `status:`, `url:` and `title:` lines (`location:` for a redirect kept
  /// as the result, `subresources:` when some were loaded, `stopped at:`
  /// for a URL `--stop-at` kept from being requested), values aligned.
  static func summary(_ outcome: FetchOutcome) -> String {
    var rows: [(String, String)] = []
    if let page = outcome.page {
      rows = [
        ("status", page.response.hops.last.map(FetchStep.status) ?? "\(page.response.statusCode)"),
        ("url", page.url.absoluteString),
        ("title", page.title.isEmpty ? "(none)" : page.title),
      ]
      if let location = page.response.hops.last?.location {
        rows.append(("location", location))
      }
      rows += subresourceRows(page)
    }
    if let stoppedAt = outcome.stoppedAt { rows.append(("stopped at", stoppedAt.absoluteString)) }
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { name, value in
      name + ":" + String(repeating: " ", count: width - name.count + 2) + Table.escaped(value)
        + "\n"
    }.joined()
  }

  /// The `subresources:` row, when some were loaded.
  private static func subresourceRows(_ page: FetchOutcome.Page) -> [(String, String)] {
    var rows: [(String, String)] = []
    if !page.subresources.isEmpty {
      let failed = page.subresources.filter { $0.response == nil }.count
      rows.append(
        ("subresources", "\(page.subresources.count - failed) loaded, \(failed) failed"))
    }
    return rows
  }
}
