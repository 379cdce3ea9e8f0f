import Foundation
import Testing

/// `sitedata cookies import` and `cookies export`: formats, bad lines,
/// summaries, exit statuses and output files.
@Suite struct CookieFileCommandTests {
  static let netscape = """
    # Netscape HTTP Cookie File
    www.example.com\tFALSE\t/\tFALSE\t0\tgood\t1
    www.example.com\tFALSE\t/\tFALSE\tsoon\tbad\tSECRET-ONE
    #HttpOnly_.example.com\tTRUE\t/\tTRUE\t4102444800\tsecure\t2
    www.example.com\tFALSE\t/\tFALSE\t1000000000\texpired\tSECRET-TWO
    .example.com\tTRUE\t/\tTRUE\t0\t__Host-bad\tSECRET-THREE
    only two\tfields

    """

  @Test func importReportsBadLinesAndRejectionsAndImportsTheRest() async throws {
    let sandbox = try CLISandbox()
    let file = try sandbox.write(Self.netscape, to: "cookies.txt")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "netscape"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(
      outcome.stdout == "imported 2, skipped 2 (unreadable), rejected 2 (refused by the store)\n")
    let errors = outcome.stderr.split(separator: "\n").map(String.init)
    #expect(
      errors.contains("\(file): line 3: the expiry (field 5) is not a whole number of seconds"))
    #expect(errors.contains { $0.hasPrefix("\(file): line 7: expected 7 TAB-separated fields") })
    #expect(
      errors.contains(
        "\(file): line 5: 'expired' (www.example.com path /) rejected: the cookie has expired"))
    #expect(
      errors.contains {
        $0.hasPrefix("\(file): line 6: '__Host-bad' (.example.com path /) rejected: ")
      })
    #expect(!outcome.stderr.contains("SECRET"))
    let header = try await sandbox.succeed(["cookies", "get", "https://www.example.com/"])
    #expect(header.stdout == "good=1; secure=2\n")
  }

  @Test func aCleanImportExits0AndStdinWorks() async throws {
    let sandbox = try CLISandbox()
    let text = "# Netscape HTTP Cookie File\r\nexample.com\tFALSE\t/\tFALSE\t0\ta\t1\r\n"
    let outcome = try await sandbox.succeed(
      ["cookies", "import", "-", "--format", "netscape"], stdin: text)
    #expect(
      outcome.stdout == "imported 1, skipped 0 (unreadable), rejected 0 (refused by the store)\n")
    #expect(outcome.stderr.isEmpty)
  }

  @Test func importWithEphemeralOnlyChecksTheFile() async throws {
    let sandbox = try CLISandbox()
    let file = try sandbox.write(Self.netscape, to: "cookies.txt")
    let outcome = try await sandbox.run([
      "cookies", "import", "--ephemeral", file, "--format", "netscape",
    ])
    #expect(outcome.status == 1)
    #expect(outcome.stdout.hasPrefix("imported 2, skipped 2"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
  }

  @Test func jsonImportReportsEntriesByIndex() async throws {
    let sandbox = try CLISandbox()
    let text = """
      {"format": "websitedata-cookies", "version": 1, "cookies": [
        {"name": "a", "value": "1", "domain": "example.com", "path": "/"},
        {"name": "b", "value": "SECRET", "domain": "example.com", "path": "/", "secure": "yes"},
        {"name": "c", "value": "3", "domain": "example.com", "path": "/", "sameSite": "strict"}
      ]}
      """
    let file = try sandbox.write(text, to: "cookies.json")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "json"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout.hasPrefix("imported 2, skipped 1 (unreadable), rejected 0"))
    #expect(
      outcome.stderr
        == "\(file): cookies[1]: \"secure\" must be true or false, not a string\n")
  }

  @Test(arguments: [
    ("not json at all", "the file is not valid JSON"),
    (#"{"format": "other"}"#, "is not a sitedata JSON cookie file"),
    (#"{"format": "websitedata-cookies", "version": 9, "cookies": []}"#, "has version 9"),
  ])
  func malformedJSONExits2AndImportsNothing(text: String, message: String) async throws {
    let sandbox = try CLISandbox()
    let file = try sandbox.write(text, to: "bad.json")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "json"])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.hasPrefix("Error: \(file): "))
    #expect(outcome.stderr.contains(message))
    #expect(!FileManager.default.fileExists(atPath: sandbox.dataHome))
  }

  @Test func aMissingFileIsAFailure() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run([
      "cookies", "import", sandbox.path("nope.txt"), "--format", "netscape",
    ])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("No such file or directory"))
  }

  @Test(arguments: [
    (["cookies", "import", "-", "--password-stdin"], "are for browser databases"),
    (["cookies", "import", "x.txt", "--format", "csv"], "Unknown format 'csv'"),
    (["cookies", "import", "-", "--format", "chromium"], "read from a file, not stdin"),
    (
      ["cookies", "import", "x", "--format", "json", "--container", "1"],
      "--container is for --format firefox"
    ),
    (
      ["cookies", "import", "x", "--format", "firefox", "--container", "two"],
      "--container takes a container id"
    ),
    (
      ["cookies", "import", "x", "--format", "json", "--password-stdin"],
      "--password-stdin is for --format chromium"
    ),
    (
      ["cookies", "import", "-", "--format", "json", "--passphrase-stdin"],
      "cannot both come from stdin"
    ),
    (
      ["cookies", "export", "--format", "chromium"],
      "Unknown format 'chromium' (one of netscape, json)"
    ),
    (["cookies", "export", "out.txt"], "Unexpected argument 'out.txt'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: "))
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("Usage: sitedata cookies "))
  }

  @Test func exportWritesNetscapeToStdoutWithoutExpiredOrPartitionedCookies() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com/",
      [
        "host=1; Max-Age=3600", "wide=2; Domain=example.com; Path=/docs; Secure",
        "only=3; HttpOnly", "chips=4; Secure; Partitioned",
      ])
    let outcome = try await sandbox.succeed(["cookies", "export"])
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "# Netscape HTTP Cookie File")
    let cookies = lines.filter { !$0.hasPrefix("# ") && !$0.isEmpty }
    #expect(cookies.count == 3, "\(outcome)")
    #expect(
      cookies.contains {
        $0.hasPrefix("www.example.com\tFALSE\t/\tFALSE\t") && $0.hasSuffix("\thost\t1")
      })
    #expect(cookies.contains(".example.com\tTRUE\t/docs\tTRUE\t0\twide\t2"))
    #expect(cookies.contains("#HttpOnly_www.example.com\tFALSE\t/\tFALSE\t0\tonly\t3"))
    #expect(
      outcome.stderr
        == "Note: left out 'chips' (www.example.com path /): partitioned cookies cannot be"
        + " written in this format (use JSON)\n")
  }

  @Test func exportLeavesOutExpiredCookiesUnlessAsked() async throws {
    let sandbox = try CLISandbox()
    let text = """
      {"format": "websitedata-cookies", "version": 1, "cookies": [
        {"name": "live", "value": "1", "domain": "example.com", "path": "/", "expires": "2999-01-01T00:00:00Z"}
      ]}
      """
    try await sandbox.succeed([
      "cookies", "import", try sandbox.write(text, to: "c.json"), "--format", "json",
    ])
    // A cookie that expires one second after it is set.
    try await sandbox.set("https://example.com/", ["soon=1; Max-Age=1"])
    try await Task.sleep(for: .milliseconds(1100))
    let plain = try await sandbox.succeed(["cookies", "export", "--format", "json"])
    #expect(plain.stdout.contains("\"live\""))
    #expect(!plain.stdout.contains("\"soon\""))
    let all = try await sandbox.succeed([
      "cookies", "export", "--format", "json", "--include-expired",
    ])
    #expect(all.stdout.contains("\"soon\""))
  }

  @Test func exportToAFileIsPrivateAndReplacesIt() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set("https://example.com/", ["a=1; Max-Age=3600"])
    let output = try sandbox.write("old contents", to: "out.txt")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: output)
    let outcome = try await sandbox.succeed(["cookies", "export", "--output", output])
    #expect(outcome.stdout == "exported 1 cookie to \(output)\n")
    let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let text = String(decoding: try #require(sandbox.contents(output)), as: UTF8.self)
    #expect(text.hasPrefix("# Netscape HTTP Cookie File\n"))
    #expect(text.hasSuffix("\ta\t1\n"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.root)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test func exportToAMissingFolderFails() async throws {
    let sandbox = try CLISandbox()
    let outcome = try await sandbox.run([
      "cookies", "export", "--output", sandbox.path("no/such/folder/out.txt"),
    ])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.hasPrefix("Error: cannot write '"))
  }

  @Test func jsonExportImportIsLossless() async throws {
    let sandbox = try CLISandbox()
    try await sandbox.set(
      "https://www.example.com:8443/app/x",
      [
        "a=1; Max-Age=3600; SameSite=Strict", "b=2; Domain=example.com; Secure; HttpOnly",
        "c=3; Secure; Partitioned; SameSite=None",
      ])
    try await sandbox.set(
      "https://www.example.com/w", ["p=4; Secure; Partitioned; SameSite=None; Path=/"],
      ["--sub", "--site", "https://news.test/"])
    let exported = try await sandbox.succeed(["cookies", "export", "--format", "json"])
    let file = try sandbox.write(exported.stdout, to: "all.json")
    let imported = try await sandbox.succeed([
      "cookies", "import", file, "--format", "json", "--store-id", "copy",
    ])
    #expect(imported.stdout.hasPrefix("imported 4, skipped 0 (unreadable), rejected 0"))
    let again = try await sandbox.succeed([
      "cookies", "export", "--format", "json", "--store-id", "copy",
    ])
    #expect(again.stdout == exported.stdout)
  }
}
