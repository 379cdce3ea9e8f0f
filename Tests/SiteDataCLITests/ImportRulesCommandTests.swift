import Foundation
import Testing

/// `sitedata cookies import` applies the rules of HTTP to every cookie: each
/// one the store refuses is reported with its place and reason (never its
/// value, and never a control character of its name), and the rest is stored
/// in canonical form.
@Suite struct ImportRulesCommandTests {
  @Test func netscapeRefusalsNameTheirLine() async throws {
    let sandbox = try CLISandbox()
    let text = [
      "# Netscape HTTP Cookie File",
      ".co.uk\tTRUE\t/\tFALSE\t0\tsuffix\tSECRET-ONE",
      "WWW.Example.COM\tFALSE\t/\tFALSE\t0\tupper\t1",
      "www.shop.test:8443\tFALSE\t/\tFALSE\t0\tported\t1",
      "www.example.com\tFALSE\t/\tFALSE\t0\tbell\u{7}\tSECRET-TWO\u{1B}[2J",
    ].joined(separator: "\n")
    let file = try sandbox.write(text, to: "cookies.txt")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "netscape"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(
      outcome.stdout == "imported 2, skipped 0 (unreadable), rejected 2 (refused by the store)\n")
    let errors = outcome.stderr.split(separator: "\n").map(String.init)
    #expect(
      errors == [
        "\(file): line 2: 'suffix' (.co.uk path /) rejected: the Domain attribute is a public suffix",
        "\(file): line 5: 'bell\\u{7}' (www.example.com path /) rejected: the line contains a control character",
      ])
    #expect(!outcome.stderr.contains("SECRET"))
    #expect(!outcome.stderr.utf8.contains(0x1B) && !outcome.stderr.utf8.contains(0x07))
    let list = try await sandbox.succeed(["cookies", "list", "--json"])
    #expect(
      list.stdout.contains(#""domain" : "www.example.com""#)
        || list.stdout.contains(#""domain": "www.example.com""#))
    let ported = try await sandbox.succeed([
      "cookies", "get", "http://www.shop.test:8443/",
    ])
    #expect(ported.stdout == "ported=1\n")
  }

  @Test func jsonRefusalsNameTheirIndex() async throws {
    let sandbox = try CLISandbox()
    let text = """
      {"format": "websitedata-cookies", "version": 1, "cookies": [
        {"name": "a", "value": "1", "domain": "example.com", "path": "/"},
        {"name": "b", "value": "SECRET", "domain": "com", "hostOnly": false, "path": "/"},
        {"name": "c", "value": "3", "domain": "example.com", "path": "/a;b"}
      ]}
      """
    let file = try sandbox.write(text, to: "cookies.json")
    let outcome = try await sandbox.run(["cookies", "import", file, "--format", "json"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stdout.hasPrefix("imported 1, skipped 0 (unreadable), rejected 2"))
    let errors = outcome.stderr.split(separator: "\n").map(String.init)
    #expect(errors.count == 2)
    #expect(errors.first?.hasPrefix("\(file): cookies[1]: 'b' (.com path /) rejected: ") == true)
    #expect(
      errors.last?.hasPrefix("\(file): cookies[2]: 'c' (example.com path /a;b) rejected: ") == true)
    #expect(!outcome.stderr.contains("SECRET"))
  }
}
