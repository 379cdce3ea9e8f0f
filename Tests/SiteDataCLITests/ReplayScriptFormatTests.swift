import Testing

/// The replay script format: malformed scripts (exit 2, nothing run) and the
/// raw-bytes handling of header values.
@Suite struct ReplayScriptFormatTests {
  /// A malformed script, the line the error names, and part of the reason.
  struct Malformed: CustomTestStringConvertible, Sendable {
    var name: String
    var script: String
    var line: Int
    var reason: String

    var testDescription: String { name }
  }

  static let malformed: [Malformed] = [
    .init(
      name: "unknown directive",
      script: "request https://a.example.com/\nfetch https://a.example.com/",
      line: 2, reason: "unknown directive 'fetch'"),
    .init(
      name: "bad now", script: "now tomorrow", line: 1,
      reason: "'now': 'tomorrow' is not an RFC 3339 time"),
    .init(
      name: "impossible date", script: "now 2026-02-29T00:00:00Z", line: 1,
      reason: "is not an RFC 3339 time"),
    .init(
      name: "now without time", script: "now", line: 1, reason: "'now': needs one time"),
    .init(
      name: "bad advance unit", script: "\n\nadvance 90x", line: 3,
      reason: "'advance': '90x' is not a duration"),
    .init(
      name: "negative advance", script: "advance -5s", line: 1, reason: "is not a duration"),
    .init(
      name: "sub without site", script: "request https://a.example.com/x sub", line: 1,
      reason: "'sub' needs 'site=<url>'"),
    .init(
      name: "site on a navigation",
      script: "response https://a.example.com/ site=https://b.example.com/", line: 1,
      reason: "'site=' is only for 'sub'"),
    .init(
      name: "header outside response", script: "Set-Cookie: a=1", line: 1,
      reason: "header line outside a response block"),
    .init(
      name: "header after blank line",
      script: "response https://a.example.com/\nSet-Cookie: a=1\n\nSet-Cookie: b=2", line: 4,
      reason: "header line outside a response block"),
    .init(
      name: "header after request",
      script: "response https://a.example.com/\nrequest https://a.example.com/\nSet-Cookie: b=2",
      line: 3, reason: "header line outside a response block"),
    .init(
      name: "bad URL", script: "request http://[::1/", line: 1,
      reason: "'request': 'http://[::1/' is not a valid URL"),
    .init(
      name: "relative URL", script: "response /login", line: 1, reason: "is not a valid URL"),
    .init(
      name: "bad site URL", script: "request https://a.example.com/ sub site=nowhere", line: 1,
      reason: "'nowhere' is not a valid URL"),
    .init(
      name: "bad policy name", script: "policy block-some", line: 1,
      reason: "unknown policy 'block-some' (one of allow-all, block-third-party,"),
    .init(
      name: "expect before any request",
      script: "response https://a.example.com/\nSet-Cookie: a=1\nexpect a=1", line: 3,
      reason: "'expect': no request before it"),
    .init(
      name: "URL missing", script: "request", line: 1, reason: "'request': needs a URL"),
    .init(
      name: "URL not first", script: "request sub https://a.example.com/", line: 1,
      reason: "the URL comes first"),
    .init(
      name: "option before URL",
      script: "request site=https://b.example.com/ https://a.example.com/",
      line: 1, reason: "the URL comes first"),
    .init(
      name: "nav and sub", script: "request https://a.example.com/ nav sub", line: 1,
      reason: "'nav' or 'sub' given twice"),
    .init(
      name: "unknown argument", script: "request https://a.example.com/ colour=red", line: 1,
      reason: "unknown argument 'colour=red'"),
    .init(
      name: "bad method", script: "request https://a.example.com/ method=G(T", line: 1,
      reason: "'G(T' is not an HTTP method"),
    .init(
      name: "CRLF line ending", script: "request https://a.example.com/\r\nexpect\r\n", line: 1,
      reason: "the line ends with a carriage return: replay scripts use LF line endings"),
    .init(
      name: "control character in a directive", script: "request https://a.example.com/\u{1}",
      line: 1, reason: "the line contains a control character (0x01)"),
    .init(
      name: "late error, nothing run",
      script: "response https://a.example.com/\nSet-Cookie: a=1\nrequest https://a.example.com/\n"
        + "expect a=1\n# fine so far\nadvance 1w",
      line: 6, reason: "'advance': '1w' is not a duration"),
  ]

  /// Malformed version headers and version 2 directives.
  static let malformedVersion2: [Malformed] = [
    .init(
      name: "unsupported version", script: "# a comment\n\nversion 3\n", line: 3,
      reason: "'version': unsupported version '3' (one of 1, 2)"),
    .init(
      name: "version not a number", script: "version two", line: 1,
      reason: "'version': unsupported version 'two'"),
    .init(name: "version without number", script: "version", line: 1, reason: "needs one number"),
    .init(
      name: "version after a directive", script: "advance 1s\nversion 2", line: 2,
      reason: "'version': comes first"),
    .init(
      name: "version twice", script: "version 2\nversion 2", line: 2,
      reason: "'version': comes first"),
    .init(
      name: "version 2 directive in a version 1 script", script: "version 1\ninteraction a.test",
      line: 2, reason: "'interaction': needs version 2 (start the script with a line 'version 2')"),
    .init(
      name: "version 2 directive without a header", script: "run-tracking-prevention", line: 1,
      reason: "'run-tracking-prevention': needs version 2"),
    .init(
      name: "frame in a version 1 script",
      script: "request https://a.test/ frame site=https://b.test/",
      line: 1, reason: "'request': 'frame' needs version 2"),
    .init(
      name: "chain in a version 1 script",
      script: "response https://a.test/ chain=https://b.test/", line: 1,
      reason: "'response': 'chain=' needs version 2"),
    .init(
      name: "source in a version 1 script", script: "request https://a.test/ source=script",
      line: 1, reason: "'request': 'source=' needs version 2"),
    .init(
      name: "unknown directive lists version 2's", script: "version 2\nexpect-blocked a.test",
      line: 2, reason: "unknown directive 'expect-blocked' (one of version, now, advance, policy,"),
    .init(
      name: "interaction without a site", script: "version 2\ninteraction", line: 2,
      reason: "'interaction': needs one site (a URL or a domain)"),
    .init(
      name: "interaction with a bad site", script: "version 2\ninteraction http://[::1", line: 2,
      reason: "'interaction': 'http://[::1' is not a URL or a domain"),
    .init(
      name: "interaction with a site of another scheme",
      script: "version 2\ninteraction ftp://a.test/", line: 2,
      reason: "'ftp://a.test/' is not a URL or a domain"),
    .init(
      name: "grant with one site", script: "version 2\n\ngrant a.test", line: 3,
      reason: "'grant': needs the embedded site and the top-level site"),
    .init(
      name: "revoke with three sites", script: "version 2\nrevoke a.test b.test c.test", line: 2,
      reason: "'revoke': needs the embedded site, and optionally the top-level site"),
    .init(
      name: "tracking neither on nor off", script: "version 2\ntracking maybe", line: 2,
      reason: "'tracking': needs 'on' or 'off'"),
    .init(
      name: "run-tracking-prevention with another word",
      script: "version 2\nrun-tracking-prevention now", line: 2,
      reason: "'run-tracking-prevention': takes nothing, or 'dry-run'"),
    .init(
      name: "expect-prevalent without a site", script: "version 2\nexpect-prevalent", line: 2,
      reason: "'expect-prevalent': needs one site"),
    .init(
      name: "expect-not-prevalent with two sites",
      script: "version 2\nexpect-not-prevalent a.test b.test", line: 2,
      reason: "'expect-not-prevalent': needs one site"),
    .init(
      name: "expect-removed before any run", script: "version 2\nexpect-removed a.test", line: 2,
      reason: "'expect-removed': no run-tracking-prevention before it"),
    .init(
      name: "expect-not-removed before any run",
      script: "version 2\ninteraction a.test\nexpect-not-removed a.test", line: 3,
      reason: "'expect-not-removed': no run-tracking-prevention before it"),
    .init(
      name: "frame without site", script: "version 2\nrequest https://a.test/ frame", line: 2,
      reason: "'request': 'frame' needs 'site=<url>'"),
    .init(
      name: "nav and frame", script: "version 2\nrequest https://a.test/ nav frame", line: 2,
      reason: "'nav', 'sub' or 'frame' given twice"),
    .init(
      name: "site on a version 2 navigation",
      script: "version 2\nrequest https://a.test/ site=https://b.test/", line: 2,
      reason: "'site=' is only for 'sub' or 'frame'"),
    .init(
      name: "empty URL in a chain",
      script: "version 2\nrequest https://a.test/ chain=https://b.test/,,https://c.test/",
      line: 2, reason: "'request': 'chain=' needs URLs separated by commas"),
    .init(
      name: "bad URL in a chain", script: "version 2\nrequest https://a.test/ chain=nowhere",
      line: 2, reason: "'chain=': 'nowhere' is not a valid URL"),
    .init(
      name: "chain URL of another scheme",
      script: "version 2\nresponse https://a.test/ chain=ftp://b.test/", line: 2,
      reason: "'chain=': 'ftp://b.test/' is not an http or https URL"),
    .init(
      name: "chain given twice",
      script: "version 2\nrequest https://a.test/ chain=https://b.test/ chain=https://c.test/",
      line: 2, reason: "'chain=' given twice"),
    .init(
      name: "unknown source", script: "version 2\nrequest https://a.test/ source=worker", line: 2,
      reason: "'request': unknown source 'worker' (one of http, script)"),
    .init(
      name: "script with from",
      script: "version 2\nresponse https://a.test/ source=script from=https://b.test/", line: 2,
      reason: "'source=script' takes no 'from=', 'method=' or 'chain='"),
    .init(
      name: "script with a chain",
      script: "version 2\nrequest https://a.test/ source=script chain=https://b.test/", line: 2,
      reason: "'source=script' takes no 'from=', 'method=' or 'chain='"),
  ]

  @Test(arguments: malformedVersion2)
  func malformedVersion2ScriptIsRejectedBeforeRunning(_ testCase: Malformed) async throws {
    try await malformedScriptIsRejectedBeforeRunning(testCase)
  }

  /// The same version 1 script, with each header the format accepts.
  @Test(arguments: ["", "version 1\n", "version 2\n", "# a comment\n\n  version 2\n"])
  func versionHeaderIsAccepted(header: String) async throws {
    let script =
      header + "response https://a.test/\nSet-Cookie: a=1\n\nrequest https://a.test/\nexpect a=1\n"
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "a=1\n")
    #expect(outcome.stderr.isEmpty)
  }

  @Test(arguments: malformed)
  func malformedScriptIsRejectedBeforeRunning(_ testCase: Malformed) async throws {
    let outcome = try await SiteDataProcess.replay(testCase.script)
    #expect(outcome.status == 2, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.hasPrefix("Error: <stdin>:\(testCase.line): "), "\(outcome)")
    #expect(outcome.stderr.contains(testCase.reason), "\(outcome)")
    #expect(outcome.stderr.split(separator: "\n").count == 1)
  }

  @Test func malformedFileNamesThePath() async throws {
    let path = try TemporaryFile.write("\nwait 5s\n", name: "bad.replay")
    defer { TemporaryFile.remove(path) }
    let outcome = try await SiteDataProcess.run(["replay", path])
    #expect(outcome.status == 2)
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.hasPrefix("Error: \(path):2: unknown directive 'wait'"))
  }

  /// A script setting one cookie from raw header bytes, then requesting it.
  static func script(setCookie value: [UInt8], expect: String) -> [UInt8] {
    Array("response https://www.example.com/\nSet-Cookie: ".utf8) + value
      + Array("\nrequest https://www.example.com/\nexpect \(expect)\n".utf8)
  }

  @Test func tabInsideValueIsKept() async throws {
    let outcome = try await SiteDataProcess.replay(
      bytes: Self.script(setCookie: Array("a=b\tc".utf8), expect: "a=b\tc"))
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "a=b\tc\n")
  }

  /// Header values the cookie parser must reject (RFC 6265bis §5.6 step 1, and
  /// UTF-8): the script is still well-formed, and no cookie is stored.
  @Test(arguments: [
    ("bare CR", Array("a=b\rc".utf8)),
    ("NUL", [UInt8(ascii: "a"), UInt8(ascii: "="), 0, UInt8(ascii: "c")]),
    ("trailing CR (a CRLF header line)", Array("a=b\r".utf8)),
    ("not UTF-8", [UInt8(ascii: "a"), UInt8(ascii: "="), 0xFF, 0xFE]),
  ])
  func rejectedBytesStoreNothing(label: String, value: [UInt8]) async throws {
    let outcome = try await SiteDataProcess.replay(bytes: Self.script(setCookie: value, expect: ""))
    #expect(outcome.status == 0, "\(label): \(outcome)")
    #expect(outcome.stdoutBytes == [UInt8(ascii: "\n")], "\(label)")
  }

  @Test func rejectedLineDoesNotStopTheOthers() async throws {
    let bytes =
      Array("response https://www.example.com/\nSet-Cookie: bad=\r1\n".utf8)
      + Array("Set-Cookie: good=1\nrequest https://www.example.com/\nexpect good=1\n".utf8)
    let outcome = try await SiteDataProcess.replay(bytes: bytes)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "good=1\n")
  }

  @Test func explainNamesTheRejectedHeaderLine() async throws {
    let bytes = Array("response https://www.example.com/\n\nSet-Cookie: a=\u{0}1\n".utf8)
    // The blank line ends the block: the header is outside it.
    let malformed = try await SiteDataProcess.replay(bytes: bytes, ["--explain"])
    #expect(malformed.status == 2)
    let outcome = try await SiteDataProcess.replay(
      bytes: Array("response https://www.example.com/\nSet-Cookie: a=\u{0}1\n".utf8), ["--explain"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.stderr == "<stdin>:2: Set-Cookie rejected: the line contains a control character\n")
  }
}
