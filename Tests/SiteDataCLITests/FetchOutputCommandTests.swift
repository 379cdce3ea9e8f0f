import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

/// `sitedata fetch` giving the page itself, launched as a user would against
/// the loopback test server: the body (`-o`, `--json`), the heads (`-i`,
/// `-D`), redirects kept as the result (`--no-follow`, `--max-redirects 0`),
/// URLs never requested (`--stop-at`), body limits and `--insecure`.
@Suite(.hangGuard) struct FetchOutputCommandTests {
  let server: TestServer
  let sandbox: CLISandbox

  init() async throws {
    server = try await TestServer.shared()
    sandbox = try CLISandbox()
  }

  var resolve: [String] {
    server.loopbackNames.flatMap { ["--resolve", "\($0.host):\($0.port):127.0.0.1"] }
  }

  /// Runs `sitedata fetch --ephemeral` reaching the test server.
  func fetch(_ arguments: [String], trusting: Bool = true) async throws -> SiteDataProcess.Outcome {
    let trust = trusting ? ["--cacert", server.caFile] : []
    return try await sandbox.run(
      ["fetch", "--ephemeral", "--timeout", "30"] + arguments + resolve + trust)
  }

  /// `/page` answering `body` with `type` (and logging each request under `key`).
  func page(_ body: [UInt8], type: String, key: String? = nil, host: String = "a.test") -> String {
    server.origin("http", host) + "/page?ct=" + type.queryEncoded + "&b64="
      + Data(body).base64EncodedString().queryEncoded + (key.map { "&key=" + $0 } ?? "")
  }

  /// `/redirect` to `target`.
  func redirect(to target: String, status: Int = 302) -> String {
    server.origin("http", "a.test") + "/redirect?status=\(status)&to=" + target.queryEncoded
  }

  /// How many requests the server logged under `key` (read with the tool).
  func requests(logged key: String) async throws -> Int {
    let outcome = try await fetch([
      "-o", "-", server.origin("http", "a.test") + "/logged?key=" + key,
    ])
    let records = try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [Any]
    return try #require(records).count
  }

  static let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A]

  // MARK: - The body

  @Test func outputWritesTheFinalBodyAfterRedirectsByteForByte() async throws {
    let file = sandbox.path("image.png")
    let outcome = try await fetch([
      "-o", file, redirect(to: page(Self.binary, type: "image/png")),
    ])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(sandbox.contents(file).map(Array.init) == Self.binary)
    #expect(outcome.stdout.hasPrefix("status:  200 OK\n"), "\(outcome)")
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func outputToStdoutIsTheBodyAloneAndTheReportGoesToStderr() async throws {
    let body = Array("plain body\n".utf8)
    let outcome = try await fetch(["-o", "-", "-v", page(body, type: "text/plain")])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdoutBytes == body)
    #expect(outcome.stderr.contains("* committed"), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("status:"))
  }

  @Test func includeWritesEveryHeadBeforeTheBody() async throws {
    let body = Array("<p>x</p>".utf8)
    let outcome = try await fetch([
      "-i", "-o", "-", redirect(to: page(body, type: "text/html; charset=utf-8"), status: 301),
    ])
    #expect(outcome.status == 0, "\(outcome)")
    let text = outcome.stdout
    let heads = text.components(separatedBy: "\r\n\r\n")
    #expect(heads.count == 3, "\(text)")
    #expect(heads[0].hasPrefix("HTTP/1.1 301 Moved Permanently\r\n"), "\(text)")
    #expect(heads[0].contains("\r\nLocation: "))
    #expect(heads[1].hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(heads[1].contains("\r\nContent-Type: text/html; charset=utf-8"))
    #expect(heads[2] == "<p>x</p>")
  }

  @Test func dumpHeaderWritesTheHeadsAndTheSummaryStays() async throws {
    let file = sandbox.path("heads.txt")
    let outcome = try await fetch(["-D", file, redirect(to: page([], type: "text/plain"))])
    #expect(outcome.status == 0, "\(outcome)")
    let heads = String(decoding: try #require(sandbox.contents(file)), as: UTF8.self)
    #expect(heads.hasPrefix("HTTP/1.1 302 Found\r\n"), "\(heads)")
    #expect(heads.hasSuffix("\r\n\r\n"))
    #expect(heads.components(separatedBy: "HTTP/1.1 ").count == 3)
    #expect(outcome.stdout.hasPrefix("status:  200 OK\n"))
  }

  @Test func jsonHasTextBodiesAsTextAndOthersInBase64() async throws {
    let html = try FetchOutputDocument(
      try await fetch(["--json", page(Array("<title>t</title>é".utf8), type: "text/html")]))
    // No charset: an HTML document without one is decoded as windows-1252.
    #expect(html.bodyText == "<title>t</title>Ã©")
    #expect(html.bodyBase64 == nil)
    #expect(html.bodySize == 18)
    let json = try FetchOutputDocument(
      try await fetch(["--json", page(Array("{\"a\":1}".utf8), type: "application/json")]))
    #expect(json.bodyText == "{\"a\":1}")
    let image = try FetchOutputDocument(
      try await fetch(["--json", page(Self.binary, type: "image/png")]))
    #expect(image.bodyText == nil)
    #expect(image.bodyBase64 == Data(Self.binary).base64EncodedString())
    let latin1 = try FetchOutputDocument(
      try await fetch([
        "--json", page([0x63, 0x61, 0x66, 0xE9], type: "text/plain; charset=latin1"),
      ]))
    #expect(latin1.bodyText == nil)
    #expect(latin1.bodyBase64 == "Y2Fm6Q==")
  }

  // MARK: - Redirects and stops

  @Test(arguments: [["--no-follow"], ["--max-redirects", "0"]])
  func aRedirectCanBeTheResult(options: [String]) async throws {
    let key = "no-follow-\(UUID().uuidString)"
    let target = page([], type: "text/plain", key: key)
    let outcome = try await fetch(options + [redirect(to: target)])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.hasPrefix("status:    302 Found\n"), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("location:  \(target)\n"))
    #expect(try await requests(logged: key) == 0)
  }

  @Test func stopAtEndsBeforeACustomSchemeCallback() async throws {
    let callback = "com.example.app:/oauth?code=c0de&state=s"
    let outcome = try await fetch(["--stop-at", "com.example.app:/oauth", redirect(to: callback)])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("status:      302 Found\n"), "\(outcome.stdout)")
    #expect(outcome.stdout.hasSuffix("stopped at:  \(callback)\n"))
  }

  @Test func stopAtNeverRequestsALoopbackCallback() async throws {
    let key = "stop-at-\(UUID().uuidString)"
    let callback = page([], type: "text/plain", key: key, host: "c.test")
    let prefix = server.origin("http", "c.test") + "/page"
    let json = try FetchOutputDocument(
      try await fetch(["--json", "--stop-at", prefix, redirect(to: callback)]))
    #expect(json.stoppedAt == callback)
    #expect(json.status == 302)
    #expect(try await requests(logged: key) == 0)
    // A first request to such a URL is not made either.
    let first = try await fetch(["--stop-at", prefix, callback])
    #expect(first.status == 0, "\(first)")
    #expect(first.stdout == "stopped at:  \(callback)\n")
    #expect(try await requests(logged: key) == 0)
  }

  // MARK: - Verbose as it happens

  @Test func verbosePrintsEachHopWhileTheNextIsStillLoading() async throws {
    // The final response never ends (the server holds it until the client
    // closes): the redirect's hop can only be seen if it is printed when it
    // arrives, not when the fetch ends.
    let stalled = server.origin("http", "a.test") + "/stall?n=4"
    // The project's harness, not Foundation's `Process` (whose descriptor
    // scan trips AddressSanitizer).
    let output = try ChildPipe()
    let process = try ChildProcess(
      try SiteDataProcess.binary().path,
      arguments: ["fetch", "--ephemeral", "-v", "--timeout", "120", redirect(to: stalled)]
        + resolve,
      environment: sandbox.environment(), stdout: .pipe(output), stderr: .null)
    defer { try? process.kill() }
    var text = ""
    var ended = false
    while !text.contains("* redirect 302 Found, Location: \(stalled)\n") {
      guard let line = try output.readLine() else {  // the process ended: nothing came before
        ended = true
        break
      }
      text += String(decoding: line, as: UTF8.self) + "\n"
    }
    #expect(!ended, "\(text)")
    #expect(text.hasPrefix("* started\n  > GET \(redirect(to: stalled))\n"), "\(text)")
    #expect(text.contains("  < HTTP/1.1 302 Found\n"))
    #expect(!text.contains("* committed"))
  }

  // MARK: - Subresources in detail

  /// A page on a.test with one image on b.example setting `cookies` (https,
  /// so that SameSite=None; Secure cookies may be set).
  func pageWithImage(setting cookies: [String]) -> String {
    let image =
      server.origin("https", "b.example") + "/page?ct=image%2Fpng"
      + cookies.map { "&c=" + $0.queryEncoded }.joined()
    return server.origin("https", "a.test") + "/page?html="
      + "<title>Embeds</title><img src=\"\(image)\">".queryEncoded
  }

  @Test func verboseShowsEverySubresourceWithItsCookieDecisions() async throws {
    let page = pageWithImage(setting: [
      "chip=1; SameSite=None; Secure; Partitioned", "lax=1; SameSite=Lax",
    ])
    let outcome = try await fetch(["-v", "--subresources", page])
    #expect(outcome.status == 0, "\(outcome)")
    let text = outcome.stdout
    let subresource = try #require(text.range(of: "* subresource image https://b.example:"))
    let finished = try #require(text.range(of: "* finished\n"))
    #expect(subresource.lowerBound < finished.lowerBound)
    let lines = text[subresource.lowerBound..<finished.lowerBound]
    #expect(lines.contains("  > Cookie: (none)\n"), "\(lines)")
    #expect(
      lines.contains(
        "  < Set-Cookie: chip=1; SameSite=None; Secure; Partitioned\n      accepted 'chip'"))
    #expect(lines.contains("  < Set-Cookie: lax=1; SameSite=Lax\n      rejected"))
  }

  @Test func jsonListsEverySubresourceHopWithItsCookies() async throws {
    let page = pageWithImage(setting: [
      "chip=1; SameSite=None; Secure; Partitioned", "lax=1; SameSite=Lax",
    ])
    let outcome = try await fetch(["--json", "--subresources", page])
    #expect(outcome.status == 0, "\(outcome)")
    let document =
      try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [String: Any]
    let subresources = try #require(document?["subresources"] as? [[String: Any]])
    #expect(subresources.count == 1)
    #expect(subresources.first?["documentURL"] as? String == page)
    let hops = try #require(subresources.first?["hops"] as? [[String: Any]])
    let setCookies = try #require(hops.first?["setCookies"] as? [[String: Any]])
    #expect(setCookies.map { $0["accepted"] as? Bool } == [true, false])
    let reasons = try #require(setCookies.last?["reasons"] as? [[String: Any]])
    #expect(reasons.first?["code"] as? String == "samesite-lax", "\(reasons)")
  }

  // MARK: - What servers send cannot drive the terminal

  @Test func controlCharactersFromTheServerAreEscapedInTheReport() async throws {
    let html = "<title>\u{1B}]0;owned\u{07}Title</title>"
    let line = "bad\u{1B}[31m=1"
    let url =
      server.origin("http", "a.test") + "/page?html=" + html.queryEncoded + "&c="
      + line.queryEncoded
    let outcome = try await fetch(["-v", url])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stdout.unicodeScalars.contains("\u{1B}"), "\(outcome.stdout)")
    #expect(!outcome.stdout.unicodeScalars.contains("\u{07}"))
    #expect(outcome.stdout.contains("  < Set-Cookie: bad\\e[31m=1\n      rejected 'bad\\e[31m'"))
    // (The HTML parser has already turned the title's controls into U+FFFD.)
    #expect(outcome.stdout.hasSuffix("Title\n"), "\(outcome.stdout)")
  }

  @Test func versionNamesTheToolAndTheLibrariesLoaded() async throws {
    let outcome = try await sandbox.run(["--version"])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("sitedata ") == true)
    for library in ["libcurl ", "SQLite ", "OpenSSL ", "libpsl "] {
      #expect(lines.last?.contains(library) == true, "\(outcome.stdout)")
    }
    #expect(try await sandbox.run(["--version", "x"]).status == 64)
  }

  @Test func aTerminalShowsHowManySubresourcesHaveLoaded() async throws {
    let image = page(Self.binary, type: "image/png")
    let html = "<title>Two</title><img src='\(image)&n=1'><img src='\(image)&n=2'>"
    let url = server.origin("http", "a.test") + "/page?html=" + html.queryEncoded
    // In a pseudo-terminal (util-linux `script`), which shows stdout and
    // stderr together (no spaces in the arguments).
    let run = { (extra: [String]) in
      try await self.sandbox.run(
        ["fetch", "--ephemeral", "--subresources", url] + extra + self.resolve,
        launcher: ["/bin/sh", "-c", "exec /usr/bin/script -q -e -c \"$0 $*\" /dev/null"])
    }
    let shown = try await run([])
    #expect(shown.status == 0, "\(shown)")
    #expect(shown.stdout.contains("loading subresources: "), "\(shown.stdout)")
    #expect(shown.stdout.contains("/2 loaded, "))
    #expect(shown.stdout.contains("subresources:  2 loaded, 0 failed"))
    let quiet = try await run(["--quiet"])
    #expect(!quiet.stdout.contains("loading subresources: "), "\(quiet.stdout)")
  }

  // MARK: - Limits, trust and usage

  @Test func aBodyOverTheLimitFails() async throws {
    let outcome = try await fetch([
      "--max-body-size", "1K", server.origin("http", "a.test") + "/big?n=4096",
    ])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: "), "\(outcome.stderr)")
    let within = try await fetch([
      "--max-body-size", "4K", "-o", "-", server.origin("http", "a.test") + "/big?n=4096",
    ])
    #expect(within.stdoutBytes.count == 4096, "\(within)")
  }

  @Test func insecureAcceptsAnUntrustedCertificateAndSaysSo() async throws {
    let url = server.origin("https", "a.test") + "/echo-page"
    let refused = try await fetch([url], trusting: false)
    #expect(refused.status == 1)
    let outcome = try await fetch(["-k", url], trusting: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Warning: --insecure: TLS certificates are not checked"))
    #expect(outcome.stdout.hasPrefix("status:  200 OK\n"))
  }

  @Test(arguments: [
    (["--json", "-o", "-"], "--json prints the body and heads itself"),
    (["-o", "-", "-D", "-"], "-o - and -D - cannot both write to stdout"),
    (["--max-body-size", "ten"], "--max-body-size takes a number of bytes"),
    (["--stop-at", ""], "--stop-at takes the start of a URL"),
    (["-o", ""], "--output takes a file name or '-'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let outcome = try await fetch(arguments + [server.origin("http", "a.test") + "/echo"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }
}

/// The parts of `fetch --json` these tests read.
struct FetchOutputDocument: Decodable {
  let status: Int?
  let bodySize: Int?
  let bodyText: String?
  let bodyBase64: String?
  let stoppedAt: String?

  init(_ outcome: SiteDataProcess.Outcome) throws {
    self = try JSONDecoder().decode(Self.self, from: Data(outcome.stdoutBytes))
  }
}
