import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteData

/// `sitedata fetch`, launched as a user would, against the loopback test
/// server (HTTP and HTTPS with a test CA): what it prints, what the server
/// received, what the store keeps, and every failure's exit status.
@Suite(.hangGuard) struct FetchCommandTests {
  let server: TestServer
  let sandbox: CLISandbox

  init() async throws {
    server = try await TestServer.shared()
    sandbox = try CLISandbox()
  }

  /// `--resolve` for every test host and port, and the test CA.
  var reach: [String] { server.reachOptions }

  /// Runs `sitedata fetch` in the sandbox, reaching the test server.
  func fetch(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> SiteDataProcess.Outcome
  {
    try await sandbox.run(["fetch"] + arguments + reach, environment: environment)
  }

  /// `/echo-page` on `host`, setting `cookies`.
  func echoPage(_ scheme: String = "http", _ host: String = "a.test", cookies: [String] = [])
    -> String
  {
    server.origin(scheme, host) + "/echo-page?"
      + cookies.map { "c=" + $0.queryEncoded }.joined(separator: "&")
  }

  /// `/redirect` on `host` to `target`, setting `cookies`.
  func redirect(_ host: String = "a.test", status: Int = 302, to target: String, cookies: [String])
    -> String
  {
    server.origin("http", host) + "/redirect?status=\(status)&to=" + target.queryEncoded
      + cookies.map { "&c=" + $0.queryEncoded }.joined()
  }

  /// What the server received for the page, from the JSON output's title.
  static func echo(_ outcome: SiteDataProcess.Outcome) throws -> Echo {
    let document = try FetchDocument(outcome)
    return try Echo(Array(try #require(document.title).utf8))
  }

  // MARK: - Output

  @Test func verboseShowsEveryHopWithItsCookies() async throws {
    let final = echoPage(cookies: ["third=3"])
    let middle = redirect(status: 301, to: final, cookies: ["second=2", "__Host-bad=1; Path=/"])
    let first = redirect(to: middle, cookies: ["first=1; Max-Age=3600"])
    let outcome = try await fetch(["-v", first])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr.isEmpty)
    let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let trace = Array(lines.prefix { !$0.hasPrefix("status:") })
    #expect(
      trace == [
        "* started",
        "  > GET \(first)",
        "  > Cookie: (none)",
        "  < HTTP/1.1 302 Found",
        "  cache: miss",
        "  < Set-Cookie: first=1; Max-Age=3600",
        "      accepted 'first' (a.test path /)",
        "* redirect 302 Found, Location: \(middle)",
        "  > GET \(middle)",
        "  > Cookie: first=1",
        "  < HTTP/1.1 301 Moved Permanently",
        "  cache: miss",
        "  < Set-Cookie: second=2",
        "      accepted 'second' (a.test path /)",
        "  < Set-Cookie: __Host-bad=1; Path=/",
        "      rejected '__Host-bad' (a.test path /): the name prefix (__Secure-, __Host-,"
          + " __Http-) requirements are not met",
        "* redirect 301 Moved Permanently, Location: \(final)",
        "  > GET \(final)",
        "  > Cookie: first=1; second=2",
        "  < HTTP/1.1 200 OK",
        "  cache: miss",
        "  < Set-Cookie: third=3",
        "      accepted 'third' (a.test path /)",
        "* committed 200 OK \(final)",
        "* finished",
      ], "\(outcome.stdout)")
    let summary = Array(lines.drop { !$0.hasPrefix("status:") })
    #expect(summary.first == "status:  200 OK")
    #expect(summary.dropFirst().first == "url:     \(final)")
    #expect(summary.dropFirst(2).first?.hasPrefix("title:   {") == true)
  }

  /// A persistent store keeps its HTTP cache between runs: the second fetch
  /// of a fresh response sends nothing (`cache: hit`), an ETag is validated
  /// (`revalidated`), `--no-cache` goes to the network; `cache list` and
  /// `cache clear` show and empty it.
  @Test func theCacheServesRepeatedFetchesAcrossRuns() async throws {
    let key = "cli-cache-" + UUID().uuidString
    let fresh =
      server.origin("http", "a.test") + "/cache?key=\(key)&h="
      + "Cache-Control: max-age=600".queryEncoded
    let validated =
      server.origin("http", "c.test") + "/cache?key=\(key)-v&etag=%22v1%22&h="
      + "Cache-Control: no-cache".queryEncoded
    for url in [fresh, validated] {
      let first = try await fetch(["-v", url])
      #expect(first.status == 0 && first.stdout.contains("  cache: miss"), "\(first)")
    }
    let hit = try await fetch(["-v", "-o", "-", fresh])
    #expect(hit.stdout.hasSuffix("response 1"), "\(hit)")
    #expect(hit.stderr.contains("  cache: hit (nothing sent)"), "\(hit)")
    let revalidated = try await fetch(["-v", validated])
    #expect(revalidated.stdout.contains("  cache: revalidated"), "\(revalidated)")
    let bypassed = try await fetch(["-v", "--no-cache", "-o", "-", fresh])
    #expect(bypassed.stderr.contains("  cache: miss"), "\(bypassed)")
    #expect(bypassed.stdout.hasSuffix("response 2"), "\(bypassed)")
    let list = try await sandbox.succeed(["cache", "list", "--json"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdoutBytes)) as? [[String: Any]])
    #expect(Set(entries.compactMap { $0["url"] as? String }) == [fresh, validated])
    #expect(!list.stdout.contains("response 1"))
    let records = try await sandbox.succeed(["records", "--types", "http-cache"])
    #expect(records.stdout.contains("a.test") && records.stdout.contains("c.test"), "\(records)")
    #expect(
      try await sandbox.succeed(["cache", "clear", "--site", "c.test"]).stdout
        == "removed 1 response\n")
    #expect(try await sandbox.succeed(["cache", "clear"]).stdout == "removed 1 response\n")
    #expect(try await sandbox.succeed(["cache", "list"]).stdout == "The cache is empty.\n")
  }

  /// The page reports an HSTS upgrade as a redirect of its own; the trace
  /// shows it on the hop, and every later hop stays paired with its event.
  @Test func verboseShowsAnHSTSUpgradeOnItsHop() async throws {
    let learn = try await fetch([server.dualOrigin("https", "c.test") + "/hsts?max_age=600"])
    #expect(learn.status == 0, "\(learn)")
    let final = server.dualOrigin("http", "c.test") + "/echo-page"
    let first =
      server.dualOrigin("http", "c.test") + "/redirect?status=302&to=" + final.queryEncoded
    let outcome = try await fetch(["-v", first])
    #expect(outcome.status == 0, "\(outcome)")
    let upgraded = { (url: String) in url.replacingOccurrences(of: "http://", with: "https://") }
    let trace = outcome.stdout.split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("*") || $0.hasPrefix("  > GET") }
    #expect(
      trace == [
        "* started",
        "  > GET \(upgraded(first)) (upgraded to https by HSTS)",
        "* redirect 302 Found, Location: \(final)",
        "  > GET \(upgraded(final)) (upgraded to https by HSTS)",
        "* committed 200 OK \(upgraded(final))",
        "* finished",
      ], "\(outcome.stdout)")
  }

  @Test func withoutVerboseItPrintsStatusURLAndTitle() async throws {
    let url =
      server.origin("https", "a.test") + "/page?status=404&html="
      + "<title>Not  here</title>".queryEncoded
    let outcome = try await fetch([url])
    // A 404 page is a page: exit 0.
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.stdout == """
        status:  404 Not Found
        url:     \(url)
        title:   Not here

        """)
  }

  @Test func jsonHasTheFinalPageHeadersAndEventsWithTheirCookies() async throws {
    let final = server.origin("http", "a.test") + "/echo-page?theme=%23336699&c=b%3D2"
    let first = redirect(to: final, cookies: ["a=1"])
    let outcome = try await fetch([first, "--json"])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try FetchDocument(outcome)
    #expect(document.url == final)
    #expect(document.status == 200)
    #expect(document.themeColor == "#336699")
    #expect(try Echo(Array(try #require(document.title).utf8)).cookie == "a=1")
    #expect(
      document.headers.map(\.name) == [
        "Server", "Date", "Content-Type", "Set-Cookie", "Content-Length",
      ])
    #expect(document.headers[2].value == "text/html; charset=utf-8")
    #expect(document.headers[3].value == "b=2")
    #expect(document.events.map(\.event) == ["started", "redirect", "committed", "finished"])
    let started = document.events[0]
    #expect(started.method == "GET" && started.url == first)
    #expect(started.hop?.cookie == nil && started.hop?.status == 302)
    #expect(started.hop?.setCookies.map(\.line) == ["a=1"])
    #expect(started.hop?.setCookies.map(\.accepted) == [true])
    let redirected = document.events[1]
    #expect(redirected.status == 302 && redirected.location == final && redirected.url == final)
    #expect(redirected.hop?.cookie == "a=1")
    #expect(redirected.hop?.setCookies.first?.cookie?.name == "b")
    #expect(document.events[2].status == 200 && document.events[2].url == final)
    #expect(document.error == nil)
  }

  @Test func jsonOfAFailureHasTheErrorAndTheHopsSoFar() async throws {
    let outcome = try await fetch([
      server.origin("http", "a.test") + "/loop?i=0", "--max-redirects", "1", "--json",
    ])
    #expect(outcome.status == 1)
    let document = try FetchDocument(outcome)
    #expect(document.url == nil && document.status == nil && document.title == nil)
    #expect(document.events.map(\.event) == ["started", "redirect", "failed"])
    #expect(document.events[1].hop?.location == "/loop?i=2")
    #expect(document.error?.code == "too-many-redirects")
  }

  // MARK: - Stores

  @Test func ephemeralLeavesNothingBehind() async throws {
    let url = echoPage(cookies: ["kept=no; Max-Age=3600"])
    let first = try await fetch(["--ephemeral", url, "--json"])
    #expect(first.status == 0, "\(first)")
    #expect(try Self.echo(first).cookie == nil)
    let second = try await fetch(["--ephemeral", url, "--json"])
    #expect(try Self.echo(second).cookie == nil)  // nothing carried over
    for folder in [sandbox.dataHome, sandbox.configHome] {
      #expect(!FileManager.default.fileExists(atPath: folder), "\(folder)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("home")).isEmpty)
  }

  @Test func theDefaultStoreKeepsCookiesBetweenRuns() async throws {
    let url = echoPage(cookies: ["kept=yes; Max-Age=3600", "session=1"])
    let first = try await fetch([url, "--json"])
    #expect(first.status == 0, "\(first)")
    #expect(try Self.echo(first).cookie == nil)
    #expect(FileManager.default.fileExists(atPath: sandbox.defaultStore))
    #expect(FileManager.default.fileExists(atPath: sandbox.defaultKeyFile))
    let second = try await fetch([echoPage(), "--json"])
    #expect(try Self.echo(second).cookiePairs.sorted() == ["kept=yes", "session=1"])
    let list = try await sandbox.succeed(["cookies", "list"])
    #expect(list.stdout.contains("a.test  kept"), "\(list.stdout)")
    #expect(list.stdout.contains("a.test  session"))
    let get = try await sandbox.succeed(["cookies", "get", echoPage(), "--explain"])
    // Same path: the earlier-created first (RFC 6265bis §5.8.3 step 2).
    #expect(get.stdout.hasPrefix("kept=yes; session=1\nsent:\n"), "\(get.stdout)")
  }

  @Test func aNamedStoreIsSeparateFromTheDefault() async throws {
    let first = try await fetch([echoPage(cookies: ["work=1"]), "--store-id", "work"])
    #expect(first.status == 0, "\(first)")
    let other = try await fetch([echoPage(), "--json"])
    #expect(try Self.echo(other).cookie == nil)
    let again = try await fetch([echoPage(), "--json", "--store-id", "work"])
    #expect(try Self.echo(again).cookie == "work=1")
  }

  @Test func aWrongKeyForTheDefaultStoreFailsClearly() async throws {
    let right = ["SITEDATA_PASSPHRASE": "right-passphrase"]
    try await sandbox.succeed(["cookies", "set", echoPage(), "a=1"], environment: right)
    let list = ["cookies", "list", "--json"]
    let before = try await sandbox.succeed(list, environment: right).stdout
    let wrong = try await fetch([echoPage()], environment: ["SITEDATA_PASSPHRASE": "wrong-guess"])
    #expect(wrong.status == 1)
    #expect(
      wrong.stderr
        == "Error: the passphrase from SITEDATA_PASSPHRASE does not open the store 'default'"
        + " (\(sandbox.defaultStore)) (wrong key or passphrase). Nothing was changed.\n")
    #expect(!wrong.stderr.contains("wrong-guess") && !wrong.stdout.contains("wrong-guess"))
    #expect(wrong.stdout.isEmpty)
    // The store is as it was (its bytes may move from the WAL into the
    // file, so compare what it holds).
    #expect(try await sandbox.succeed(list, environment: right).stdout == before)
    #expect(before.contains("\"a\""))
    // A key-file store given another key file.
    try await sandbox.set("https://example.com/", ["b=1"], ["--store-id", "keyed"])
    let otherKey = try await fetch([
      echoPage(), "--store-id", "keyed", "--key-file", sandbox.path("other.key"),
    ])
    #expect(otherKey.status == 1)
    #expect(otherKey.stderr.hasPrefix("Error: the key file \(sandbox.path("other.key"))"))
  }

  // MARK: - The request

  @Test func theUserAgentIsTheGivenOneOrTheLibrarys() async throws {
    let given = try await fetch([echoPage(), "--user-agent", "Example/1.0", "--json"])
    #expect(try Self.echo(given).userAgent == "Example/1.0")
    let plain = try await fetch([echoPage(), "--json"])
    #expect(try Self.echo(plain).userAgent == WebPage.defaultUserAgent)
  }

  @Test(arguments: [
    (["--data", "a=1&b=2"], "POST", "a=1&b=2", "application/x-www-form-urlencoded"),
    (
      ["--data", "{}", "--header", "Content-Type: application/json"], "POST", "{}",
      "application/json"
    ),
    (["--data", "x", "--method", "put"], "PUT", "x", "application/x-www-form-urlencoded"),
    (["--method", "DELETE"], "DELETE", "", nil),
  ])
  func dataAndMethod(options: [String], method: String, body: String, contentType: String?)
    async throws
  {
    let outcome = try await fetch([echoPage(), "--json"] + options)
    #expect(outcome.status == 0, "\(outcome)")
    let echo = try Self.echo(outcome)
    #expect(echo.method == method)
    #expect(echo.body == body)
    #expect(echo.contentType == contentType)
  }

  @Test func headersAreSent() async throws {
    let outcome = try await fetch([
      echoPage(), "--json", "--header", "X-Test: hello there", "--header", "Accept-Language:fr",
    ])
    let echo = try Self.echo(outcome)
    #expect(echo.headerValues("X-Test") == ["hello there"])
    #expect(echo.headerValues("Accept-Language") == ["fr"])
  }

  @Test func fetchUsesThePolicySavedWithTheStore() async throws {
    try await sandbox.succeed(["policy", "set", "block-all"])
    let blocked = try await fetch([echoPage(cookies: ["kept=1"])])
    #expect(blocked.status == 0, "\(blocked)")
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout == "No cookies.\n")
    try await sandbox.succeed(["policy", "set", "allow-all"])
    _ = try await fetch([echoPage(cookies: ["kept=1"])])
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout.contains("kept"))
  }

  @Test func subresourcesLoadOnlyWhenAsked() async throws {
    let key = "fetch-sub-" + UUID().uuidString
    let image = server.origin("http", "a.test") + "/page?ct=image%2Fpng&key=" + key
    let page =
      server.origin("http", "a.test") + "/page?html="
      + "<title>With image</title><img src=\"\(image)\">".queryEncoded
    let plain = try await fetch([page])
    #expect(plain.status == 0, "\(plain)")
    #expect(!plain.stdout.contains("subresources:"))
    let loaded = try await fetch([page, "--subresources"])
    #expect(loaded.stdout.hasSuffix("subresources:  1 loaded, 0 failed\n"), "\(loaded.stdout)")
  }

  // MARK: - Failures

  @Test func tooManyRedirectsExitsOneWithTheReason() async throws {
    let outcome = try await fetch([
      server.origin("http", "a.test") + "/loop?i=0", "--max-redirects", "2", "-v",
    ])
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr
        == "Error: too many redirects (more than 2 redirects; see --max-redirects)\n")
    #expect(outcome.stdout.components(separatedBy: "* redirect 302").count == 3)
    #expect(
      outcome.stdout.hasSuffix(
        "* failed: too many redirects (more than 2 redirects; see --max-redirects)\n"))
    #expect(!outcome.stdout.contains("status:"))
  }

  @Test func aRefusedConnectionExitsOneWithoutCookieValues() async throws {
    let port = try TestServer.closedPort()
    let target = "http://c.test:\(port)/"
    let url = redirect(to: target, cookies: ["token=s3cr3t-value"])
    let outcome = try await fetch(["-v", url, "--resolve", "c.test:\(port):127.0.0.1"])
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr.hasPrefix("Error: could not connect to c.test:\(port) (curl error 7: "),
      "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("s3cr3t"))
    // -v shows the cookie the redirect set, and the request that failed.
    #expect(outcome.stdout.contains("  < Set-Cookie: token=s3cr3t-value\n"))
    #expect(
      outcome.stdout.contains(
        "* redirect 302 Found, Location: \(target)\n  > \(target)\n* failed: could not connect"))
  }

  @Test func anUntrustedCertificateExitsOne() async throws {
    let resolve = server.loopbackNames.flatMap {
      ["--resolve", "\($0.host):\($0.port):127.0.0.1"]
    }
    let outcome = try await sandbox.run(
      ["fetch", server.origin("https", "a.test") + "/echo-page", "--ephemeral"] + resolve)
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr.hasPrefix(
        "Error: the TLS connection to a.test:\(server.httpsPort) failed (its certificate is not"
          + " trusted; a private CA can be given with --cacert) (curl error 60: "),
      "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test(arguments: [
    ["--resolve", "a.test"], ["--resolve", "a.test:80"], ["--resolve", "a.test:x:127.0.0.1"],
    ["--resolve", "a.test:0:127.0.0.1"], ["--resolve", "a.test:70000:127.0.0.1"],
    ["--resolve", "a.test:80:not-an-address"], ["--resolve", ":80:127.0.0.1"],
  ])
  func aMalformedResolveIsAUsageError(options: [String]) async throws {
    let outcome = try await sandbox.run(["fetch", "http://a.test/"] + options)
    #expect(outcome.status == 64)
    #expect(outcome.stderr.hasPrefix("Error: --resolve takes host:port:address"))
    #expect(outcome.stderr.contains("Usage: sitedata fetch <url>"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data"))
  }

  @Test(arguments: [
    (["ftp://a.test/"], "Error: 'ftp://a.test/' is not a URL"),
    (["http://"], "Error: 'http://' is not a URL"),
    (["http://a.test/", "--header", "NoColon"], "Error: --header takes 'Name: value'"),
    (["http://a.test/", "--header", "Bad Name: x"], "Error: 'Bad Name' is not a header name"),
    (["http://a.test/", "--header", "Cookie: a=1"], "Error: --header cannot give a Cookie"),
    (["http://a.test/", "--method", "GET /"], "Error: 'GET /' is not an HTTP method"),
    (["http://a.test/", "--max-redirects", "-1"], "Error: --max-redirects takes a whole number"),
    (["http://a.test/", "--timeout", "0"], "Error: --timeout takes a number of seconds"),
    (["http://a.test/", "-v", "--json"], "Error: -v and --json cannot be combined"),
    (["http://a.test/", "--ephemeral", "--store-id", "x"], "Error: --store-id and --ephemeral"),
    (["http://a.test/", "-x"], "Error: Unknown option '-x'"),
    ([], "Error: Missing expected argument '<url>'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let outcome = try await sandbox.run(["fetch"] + arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data"))
  }

  @Test func anUnreadableCAFileFails() async throws {
    let outcome = try await sandbox.run([
      "fetch", "https://a.test/", "--cacert", sandbox.path("missing.pem"),
    ])
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "Error: cannot read the CA file \(sandbox.path("missing.pem"))\n")
  }
}

/// The `--json` document of `sitedata fetch`.
struct FetchDocument: Decodable {
  struct Header: Decodable {
    let name: String
    let value: String
  }
  struct Event: Decodable {
    let event: String
    let method: String?
    let url: String?
    let status: Int?
    let location: String?
    let hop: Hop?
  }
  struct Hop: Decodable {
    let method: String
    let url: String
    let cookie: String?
    let status: Int
    let location: String?
    let setCookies: [SetCookie]
  }
  struct SetCookie: Decodable {
    let line: String
    let accepted: Bool
    let cookie: CookieFields?
    let reasons: [Reason]
  }
  struct CookieFields: Decodable {
    let name: String
    let domain: String
  }
  struct Reason: Decodable {
    let code: String
    let description: String
  }
  struct Failure: Decodable {
    let code: String
    let message: String
    let curlCode: Int?
  }

  let url: String?
  let status: Int?
  let title: String?
  let themeColor: String?
  let headers: [Header]
  let events: [Event]
  let error: Failure?

  /// Decodes a run's stdout.
  init(_ outcome: SiteDataProcess.Outcome) throws {
    self = try JSONDecoder().decode(FetchDocument.self, from: Data(outcome.stdoutBytes))
  }
}
