import Foundation
import ProcessHarness
import Testing

/// Round trips with real clients: the `curl` command-line tool and Python's
/// `http.cookiejar`, against a loopback server (`Support/cookie_echo_server.py`)
/// reached by host names through `--resolve`. Needs `curl` and `python3`.
@Suite(.hangGuard) struct RealClientTests {
  static let host = "www.example.test"

  /// The cookies of a Cookie header, sorted (curl and browsers order
  /// cookies of equal path length differently).
  static func pairs(_ header: String) -> [String] {
    header.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.sorted()
  }

  /// A store holding cookies of every kind the Netscape format carries.
  static func populatedSandbox() async throws -> CLISandbox {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "http://\(host)/app/page",
      [
        "host=1; Max-Age=3600", "wide=2; Domain=example.test; Path=/", "deep=3; Path=/app",
        "other=4; Path=/elsewhere", "http=5; HttpOnly; Path=/", "session=6; Path=/",
      ])
    try await sandbox.set("https://\(host)/", ["secure=7; Secure; Max-Age=3600"])
    try await sandbox.set("http://api.example.test/", ["sibling=8"])
    try await sandbox.set("http://unrelated.test/", ["unrelated=9"])
    return sandbox
  }

  @Test func curlSendsWhatTheStoreWouldSendFromOurExport() async throws {
    let sandbox = try await Self.populatedSandbox()
    let jar = sandbox.path("exported.txt")
    try await sandbox.succeed(["cookies", "export", "--output", jar])
    let server = try await EchoServer.start()
    defer { server.stop() }
    for path in ["/app/page", "/", "/elsewhere/x"] {
      let url = server.url(Self.host, path)
      let sent = try await runTool([
        "curl", "-sS", "-b", jar, "--resolve", server.resolve(Self.host), url,
      ])
      let ours = try await sandbox.succeed(["cookies", "get", url])
      #expect(Self.pairs(sent) == Self.pairs(ours.stdout), "\(path)")
      #expect(!Self.pairs(sent).isEmpty)
    }
    // Spot checks: the right ones, for the right reasons.
    let sent = try await runTool([
      "curl", "-sS", "-b", jar, "--resolve", server.resolve(Self.host),
      server.url(Self.host, "/app/page"),
    ])
    #expect(
      Self.pairs(sent) == ["deep=3", "host=1", "http=5", "session=6", "wide=2"])
  }

  @Test func theJarCurlWroteImportsAndSendsTheSameCookies() async throws {
    let sandbox = try CLISandbox()
    let server = try await EchoServer.start()
    defer { server.stop() }
    let setCookies = [
      "plain=1", "wide=2; Domain=example.test", "deep=3; Path=/app", "http=4; HttpOnly",
      "dated=5; Max-Age=3600", "elsewhere=6; Path=/other",
    ]
    let query = setCookies.map {
      "c=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }.joined(separator: "&")
    let jar = sandbox.path("curl-jar.txt")
    _ = try await runTool([
      "curl", "-sS", "-c", jar, "--resolve", server.resolve(Self.host),
      server.url(Self.host, "/set?\(query)"),
    ])
    let imported = try await sandbox.succeed(["cookies", "import", jar, "--format", "netscape"])
    #expect(
      imported.stdout == "imported 6, skipped 0 (unreadable), rejected 0 (refused by the store)\n")
    for path in ["/app/x", "/", "/other/y"] {
      let url = server.url(Self.host, path)
      let curlSends = try await runTool([
        "curl", "-sS", "-b", jar, "--resolve", server.resolve(Self.host), url,
      ])
      let weSend = try await sandbox.succeed(["cookies", "get", url])
      #expect(Self.pairs(weSend.stdout) == Self.pairs(curlSends), "\(path)")
    }
    let list = try await sandbox.succeed(["cookies", "list", "--json", "--name", "http"])
    #expect(list.stdout.contains("\"httpOnly\": true"))
    #expect(list.stdout.contains("\"domain\": \"www.example.test\""))
    let wide = try await sandbox.succeed(["cookies", "list", "--json", "--name", "wide"])
    #expect(wide.stdout.contains("\"hostOnly\": false"))
  }

  @Test func pythonsMozillaCookieJarLoadsOurExport() async throws {
    let sandbox = try await Self.populatedSandbox()
    let jar = sandbox.path("exported.txt")
    try await sandbox.succeed(["cookies", "export", "--output", jar])
    let script = """
      import http.cookiejar, sys
      jar = http.cookiejar.MozillaCookieJar(sys.argv[1])
      jar.load(ignore_discard=True, ignore_expires=sys.argv[2] == "all")
      for c in sorted(jar, key=lambda c: c.name):
          print(c.domain, c.name, c.value, c.path, c.secure, c.has_nonstandard_attr(http.cookiejar.HTTPONLY_ATTR),
                c.expires is not None and c.expires > 0, sep="|")
      """
    let persistent = try await runTool(["python3", "-c", script, jar, "dated"])
    #expect(
      persistent == """
        www.example.test|host|1|/app|False|False|True
        www.example.test|secure|7|/|True|False|True

        """)
    let all = try await runTool(["python3", "-c", script, jar, "all"])
    #expect(
      all.split(separator: "\n").map(String.init) == [
        "www.example.test|deep|3|/app|False|False|False",
        "www.example.test|host|1|/app|False|False|True",
        "www.example.test|http|5|/|False|True|False",
        "www.example.test|other|4|/elsewhere|False|False|False",
        "www.example.test|secure|7|/|True|False|True",
        "www.example.test|session|6|/|False|False|False",
        "api.example.test|sibling|8|/|False|False|False",
        "unrelated.test|unrelated|9|/|False|False|False",
        ".example.test|wide|2|/|False|False|False",
      ])
  }
}
