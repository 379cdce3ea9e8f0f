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
