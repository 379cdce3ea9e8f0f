import Foundation
import ProcessHarness
import Testing

/// `cookies export --dialect`: what wget, Python's `MozillaCookieJar` and
/// yt-dlp (the Python of the `yt-dlp` on the PATH) send from each export,
/// and what they read right or lose, as the README's table says; yt-dlp's
/// own saved file imports. Needs `wget` and `yt-dlp` (Debian packages).
@Suite(.hangGuard) struct DialectClientTests {
  static let host = "www.example.test"

  /// A session cookie, an HttpOnly one (the login cookie) and a dated one.
  static func sandbox() async throws -> CLISandbox {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "http://\(host)/",
      ["session=1; Path=/", "login=2; HttpOnly; Path=/; Max-Age=3600", "dated=3; Max-Age=3600"])
    return sandbox
  }

  static func export(_ sandbox: CLISandbox, dialect: String?) async throws -> String {
    let jar = sandbox.path("export-\(dialect ?? "default").txt")
    try await sandbox.succeed(
      ["cookies", "export", "--output", jar] + (dialect.map { ["--dialect", $0] } ?? []))
    return jar
  }

  @Test func wgetSendsEveryCookieFromTheWgetDialectAndLosesHttpOnlyOnesFromCurls() async throws {
    let server = try await EchoServer.start()
    defer { server.stop() }
    // wget has no --resolve: the cookies are the loopback address's.
    let address = "http://127.0.0.1:\(server.port)/"
    let sandbox = try CLISandbox()
    try await sandbox.set(
      address, ["session=1", "login=2; HttpOnly; Max-Age=3600", "dated=3; Max-Age=3600"])
    func wget(_ jar: String) async throws -> [String] {
      RealClientTests.pairs(
        try await runTool(["wget", "-q", "--no-hsts", "-O", "-", "--load-cookies", jar, address]))
    }
    #expect(
      try await wget(try await Self.export(sandbox, dialect: "wget"))
        == ["dated=3", "login=2", "session=1"])
    #expect(
      try await wget(try await Self.export(sandbox, dialect: nil)) == ["dated=3", "session=1"])
  }

  /// What `python` (a path or a command) loads from `jar` with
  /// `MozillaCookieJar(ignore_discard=True)`, or yt-dlp's jar: `name|httpOnly`.
  static func pythonLoads(_ jar: String, python: String, ytDLP: Bool) async throws -> [String] {
    let script = """
      import sys, http.cookiejar
      if sys.argv[2] == "yt-dlp":
          from yt_dlp.cookies import YoutubeDLCookieJar as Jar
      else:
          Jar = http.cookiejar.MozillaCookieJar
      jar = Jar(sys.argv[1])
      jar.load(ignore_discard=True)
      for c in sorted(jar, key=lambda c: c.name):
          print(c.name, c.has_nonstandard_attr(http.cookiejar.HTTPONLY_ATTR), sep="|")
      """
    return try await runTool([python, "-c", script, jar, ytDLP ? "yt-dlp" : "python"])
      .split(separator: "\n").map(String.init)
  }

  @Test func pythonLoadsSessionCookiesOnlyFromThePythonDialect() async throws {
    let sandbox = try await Self.sandbox()
    let python = try await Self.pythonLoads(
      try await Self.export(sandbox, dialect: "python"), python: "python3", ytDLP: false)
    #expect(python == ["dated|False", "login|True", "session|False"])
    let curl = try await Self.pythonLoads(
      try await Self.export(sandbox, dialect: nil), python: "python3", ytDLP: false)
    #expect(curl == ["dated|False", "login|True"])
  }

  /// The interpreter of the `yt-dlp` on the PATH (its `#!` line).
  static func ytDLPPython() async throws -> String {
    let path = try await runTool(["sh", "-c", "command -v yt-dlp"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let first = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first ?? ""
    let interpreter = first.dropFirst(2).split(separator: " ").map(String.init)
    return interpreter.first == "/usr/bin/env" ? interpreter[1] : interpreter[0]
  }

  @Test func ytDLPReadsThePythonDialectWholeAndItsSavedFileImportsBack() async throws {
    let sandbox = try await Self.sandbox()
    let python = try await Self.ytDLPPython()
    // yt-dlp drops the HttpOnly mark when it loads; yt-dlp 2023.03 (Debian
    // 12's) also drops curl's session cookies (expiry 0), later ones read both.
    let jar = try await Self.export(sandbox, dialect: "python")
    #expect(
      try await Self.pythonLoads(jar, python: python, ytDLP: true)
        == ["dated|False", "login|False", "session|False"])
    let curl = try await Self.pythonLoads(
      try await Self.export(sandbox, dialect: nil), python: python, ytDLP: true)
    #expect(curl.contains("dated|False") && curl.contains("login|False"), "\(curl)")
    // yt-dlp saves without the HttpOnly mark: what we import from it.
    let saved = sandbox.path("yt-dlp-saved.txt")
    _ = try await runTool([
      python, "-c",
      "import sys; from yt_dlp.cookies import YoutubeDLCookieJar as J; j = J(sys.argv[1]);"
        + " j.load(ignore_discard=True); j.save(sys.argv[2], ignore_discard=True)",
      jar, saved,
    ])
    // (yt-dlp 2023.03 also leaves session cookies out of what it saves.)
    let lines = try String(contentsOfFile: saved, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }
    #expect(lines.count >= 2)
    let other = try CLISandbox()
    let imported = try await other.succeed(["cookies", "import", saved])
    #expect(imported.stdout.hasPrefix("imported \(lines.count), skipped 0"), "\(imported)")
    let login = try await other.succeed(["cookies", "list", "--json", "--name", "login"])
    #expect(login.stdout.contains("\"httpOnly\": false"))
  }

  @Test func anUnknownDialectIsAUsageError() async throws {
    let outcome = try await CLISandbox().run(["cookies", "export", "--dialect", "lynx"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("Unknown dialect 'lynx' (curl, wget or python)"))
  }
}
