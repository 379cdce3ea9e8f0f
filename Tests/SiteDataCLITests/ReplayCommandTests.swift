import Foundation
import TestScratch
import Testing

/// `sitedata replay`: running scripts, expectations, options, input.
@Suite struct ReplayCommandTests {
  /// The shipped examples and the exact stdout each produces.
  static let examples: [(file: String, stdout: [String])] = [
    (
      "basics.replay",
      [
        "host_only=1; domain_wide=1",
        "domain_wide=1",
        "domain_wide=1",
        "",
        "",
        "docs=1; root=1",
        "root=1",
        "app=1; root=1",
        "root=1",
        "token=abc; theme=dark",
        "theme=dark",
        "token=abc; theme=light",
        "session=1; short=1; dated=1; both=1",
        "session=1; short=1; dated=1",
        "session=1; short=1; dated=1",
        "session=1; dated=1",
        "session=1",
        "",
      ]
    ),
    (
      "third-party.replay",
      [
        "strict=1; lax=1; none=1; unspecified=1",
        "strict=1; lax=1; none=1; unspecified=1",
        "lax=1; none=1; unspecified=1",
        "none=1; unspecified=1",
        "none=1",
        "none=1",
        "",
        "strict=1; lax=1; none=1; unspecified=1",
        "chips=1",
        "",
        "strict=1; lax=1; none=1; unspecified=1",
        "",
        "chips=1; visitor=1",
        "",
        "none=1; chips=1; visitor=1",
        "none=1",
        "",
      ]
    ),
    (
      "tracking-prevention.replay",
      [
        "id=1",
        "id=1",
        "id=1",
        "",
        "",
        "id=1",
        "id=1",
        "id=1",
        "would remove nothing",
        "would remove nothing",
        "",
        "would remove tracker.example: prevalent without user interaction",
        "id=1",
        "removed tracker.example: prevalent without user interaction",
        "",
      ]
    ),
    (
      "bounce-tracking.replay",
      [
        "",
        "would remove nothing",
        "would remove nothing",
        "would remove bounce.example: bounce tracker without user interaction",
        "id=1",
        "removed bounce.example: bounce tracker without user interaction",
        "",
        "session=1",
        "",
        "pref=hd",
        "pref=hd",
        "",
        "",
        "pref=hd",
        "",
        "server_cart=1; script_cart=1",
        "server_cart=1; script_cart=1",
        "server_cart=1; session=1",
      ]
    ),
  ]

  @Test(arguments: examples.map(\.file))
  func examplePasses(file: String) async throws {
    let expected = try #require(Self.examples.first { $0.file == file }).stdout
    let outcome = try await SiteDataProcess.run(["replay", SiteDataProcess.example(file)])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == expected.map { $0 + "\n" }.joined())
    #expect(outcome.stderr.isEmpty)
  }

  /// Every `.replay` file in `Examples/`, whether the table above has it
  /// or not.
  static let exampleFiles: [String] = {
    let folder = SiteDataProcess.packageRoot.appendingPathComponent("Examples").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".replay") }.sorted()
  }()

  @Test func everyExampleIsInTheTable() {
    #expect(Self.exampleFiles.count >= 4)
    #expect(Self.exampleFiles == Self.examples.map(\.file).sorted())
  }

  @Test(arguments: exampleFiles)
  func everyExampleFilePassesWithExplanations(file: String) async throws {
    let outcome = try await SiteDataProcess.run(
      ["replay", "--explain", SiteDataProcess.example(file)])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stdout.isEmpty)
  }

  @Test func relativePathFromPackageRoot() async throws {
    // What the README shows: `swift run sitedata replay Examples/basics.replay`.
    let outcome = try await SiteDataProcess.run(["replay", "Examples/basics.replay"])
    #expect(outcome.status == 0, "\(outcome)")
  }

  @Test func stdinGivesTheSameResultAsTheFile() async throws {
    let path = SiteDataProcess.example("third-party.replay")
    let script = try Data(contentsOf: URL(fileURLWithPath: path))
    let fromFile = try await SiteDataProcess.run(["replay", path])
    let fromStdin = try await SiteDataProcess.replay(bytes: Array(script))
    #expect(fromStdin.status == 0, "\(fromStdin)")
    #expect(fromStdin.stdout == fromFile.stdout)
    #expect(!fromStdin.stdout.isEmpty)
  }

  @Test func mismatchesAreReportedAndTheScriptRunsToTheEnd() async throws {
    let script = """
      response https://www.example.com/
      Set-Cookie: a=1
      request https://www.example.com/
      expect a=2
      request https://www.example.org/
      expect a=1
      request https://www.example.com/
      expect
      request https://www.example.com/
      expect a=1

      """
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout == "a=1\n\na=1\na=1\n")
    let lines = outcome.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "<stdin>:4: expected 'a=2', got 'a=1'",
        "<stdin>:6: expected 'a=1', got no Cookie header",
        "<stdin>:8: expected no Cookie header, got 'a=1'",
        "Error: 3 of 4 expectations not met",
      ])
  }

  @Test func expectComparesExactly() async throws {
    let script = """
      response https://www.example.com/
      Set-Cookie: a=1
      Set-Cookie: b=2
      request https://www.example.com/
      expect a=1;  b=2
      expect a=1;b=2
      expect A=1; b=2
      expect a=1; b=2

      """
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout == "a=1; b=2\n")
    let failures = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("<stdin>:") }
    #expect(failures.map { $0.prefix(10) } == ["<stdin>:5:", "<stdin>:6:", "<stdin>:7:"])
  }

  @Test func mismatchNamesTheFile() async throws {
    let path = try TemporaryFile.write(
      "request https://www.example.com/\nexpect a=1\n", name: "mismatch.replay")
    defer { TemporaryFile.remove(path) }
    let outcome = try await SiteDataProcess.run(["replay", path])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout == "\n")
    #expect(outcome.stderr.hasPrefix("\(path):2: expected 'a=1', got no Cookie header\n"))
  }

  @Test func missingFileIsAnOperationalError() async throws {
    let outcome = try await SiteDataProcess.run(["replay", "/nonexistent/none.replay"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr == "Error: cannot read '/nonexistent/none.replay': No such file or directory\n"
    )
  }

  @Test func directoryIsAnOperationalError() async throws {
    let outcome = try await SiteDataProcess.run(["replay", "Examples"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: cannot read 'Examples': "))
  }

  @Test(arguments: [
    (["replay"], "Missing expected argument '<file>'"),
    (["replay", "a.replay", "b.replay"], "Unexpected argument 'b.replay'"),
    (["replay", "--frobnicate", "a.replay"], "Unknown option '--frobnicate'"),
    (["replay", "-x", "a.replay"], "Unknown option '-x'"),
    (["replay", "a.replay", "--policy"], "Missing value for option '--policy'"),
    (["replay", "a.replay", "--explain=yes"], "The flag '--explain' does not take a value"),
    (["replay", "a.replay", "--policy", "block-some"], "Unknown policy 'block-some'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let outcome = try await SiteDataProcess.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    let lines = outcome.stderr.split(separator: "\n")
    #expect(lines.first?.hasPrefix("Error: \(message)") == true, "\(outcome)")
    #expect(
      lines.dropFirst().first == "Usage: sitedata replay [--policy <name>] [--explain] <file>")
  }

  /// A third-party request whose outcome depends on the initial policy.
  static let policyScript = """
    response https://widget.example.net/
    Set-Cookie: id=1; SameSite=None; Secure
    request https://widget.example.net/x sub site=https://news.example.com/
    expect id=1

    """

  @Test(arguments: [
    (["replay", "--policy", "allow-all", "-"], true),
    (["replay", "-", "--policy", "allow-all"], true),
    (["replay", "-", "--policy=allow-all"], true),
    (["replay", "--policy=allow-all", "-", "--policy", "block-all"], false),
    (["replay", "-", "--explain", "--policy", "allow-all"], true),
    (["replay", "--", "-"], false),
  ])
  func optionsBeforeOrAfterTheFile(arguments: [String], sendsCookie: Bool) async throws {
    let outcome = try await SiteDataProcess.run(arguments, stdin: Array(Self.policyScript.utf8))
    #expect(outcome.status == (sendsCookie ? 0 : 1), "\(outcome)")
    #expect(outcome.stdout == (sendsCookie ? "id=1\n" : "\n"))
  }

  @Test func defaultPolicyBlocksUnpartitionedThirdPartyCookies() async throws {
    let outcome = try await SiteDataProcess.replay(Self.policyScript)
    #expect(outcome.status == 1)
    #expect(outcome.stdout == "\n")
  }

  @Test func explainListsReasonsWithoutValues() async throws {
    let script = """
      response https://www.example.com/
      Set-Cookie: token=s3cr3t; Secure
      Set-Cookie: bad=v4lue; Secure; Domain=example.org
      request http://www.example.com/

      """
    let outcome = try await SiteDataProcess.replay(script, ["--explain"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "\n")
    #expect(outcome.stderr.contains("<stdin>:3: Set-Cookie "))
    #expect(outcome.stderr.contains("rejected"))
    #expect(outcome.stderr.contains("<stdin>:4: not sent: 'token' (www.example.com path /)"))
    #expect(outcome.stderr.contains("Secure cookies need a secure origin"))
    #expect(!outcome.stderr.contains("s3cr3t"))
    #expect(!outcome.stderr.contains("v4lue"))
  }

  @Test func withoutExplainStderrIsQuiet() async throws {
    let outcome = try await SiteDataProcess.replay(
      "response http://a.example.com/\nSet-Cookie: x=1; Secure\nrequest http://a.example.com/\n")
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty)
  }

  @Test func commentsIndentationAndHeaderBlocks() async throws {
    let script = [
      "# a comment",
      "  # an indented comment",
      "response https://www.example.com/",
      "  Content-Type: text/html",
      "  set-cookie: a=1",
      "  # comments do not end the block",
      "  SET-COOKIE: \t  b=2\t ",
      "\t",
      "request https://www.example.com/",
      "  expect a=1; b=2\t",
      "now 2026-06-01T10:00:00.5+02:00",
      "request https://www.example.com/",
      "expect a=1; b=2",
    ].joined(separator: "\n")
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "a=1; b=2\na=1; b=2\n")
  }

  @Test func clockStartsAt2026() async throws {
    // Expires one second after the documented start: sent, then not.
    let script = """
      response https://www.example.com/
      Set-Cookie: a=1; Expires=Thu, 01 Jan 2026 00:00:01 GMT
      request https://www.example.com/
      expect a=1
      advance 1s
      request https://www.example.com/
      expect

      """
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "a=1\n\n")
  }

  @Test(arguments: [("90s", 90), ("2m", 120), ("1h", 3600), ("1d", 86_400)])
  func advanceUnits(duration: String, seconds: Int) async throws {
    let script = """
      response https://www.example.com/
      Set-Cookie: a=1; Max-Age=\(seconds)
      advance \(seconds - 1)s
      request https://www.example.com/
      expect a=1
      now 2026-01-01T00:00:00Z
      advance \(duration)
      request https://www.example.com/
      expect

      """
    let outcome = try await SiteDataProcess.replay(script)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "a=1\n\n")
  }
}

/// Temporary files for tests that need a real path.
enum TemporaryFile {
  /// Writes `text` to a fresh file called `name` and returns its path.
  static func write(_ text: String, name: String) throws -> String {
    let path = try TemporaryFolder("replay-file").file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Removes a file `write(_:name:)` made, with its folder.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }
}
