import Foundation
import Testing

/// `sitedata cookies import` without `--format` (JSON and cookies.txt told
/// apart by their content, from a file or stdin), a file in no format at
/// all (exit 2), and `--domain`.
@Suite struct ImportDetectionCommandTests {
  let sandbox: CLISandbox

  init() throws {
    sandbox = try CLISandbox()
  }

  static let netscape = """
    # Netscape HTTP Cookie File
    www.example.com\tFALSE\t/\tFALSE\t0\ta\t1
    .xn--bcher-kva.test\tTRUE\t/\tFALSE\t0\tb\t2
    other.test\tFALSE\t/\tFALSE\t0\tc\t3

    """

  func names() async throws -> [String] {
    let listed = try await sandbox.succeed(["cookies", "list", "--json"])
    let root = try JSONSerialization.jsonObject(with: Data(listed.stdoutBytes)) as? [String: Any]
    let cookies = try #require(root?["cookies"] as? [[String: Any]])
    return cookies.compactMap { $0["name"] as? String }.sorted()
  }

  @Test func aCookiesTxtIsToldFromAFileAndFromStdin() async throws {
    let file = try sandbox.write(Self.netscape, to: "cookies.txt")
    let fromFile = try await sandbox.run(["cookies", "import", file])
    #expect(fromFile.status == 0, "\(fromFile)")
    #expect(try await names() == ["a", "b", "c"])
    let fromStdin = try await sandbox.run(
      ["cookies", "import", "-", "--store", sandbox.path("other.db")], stdin: Self.netscape)
    #expect(fromStdin.stdout.hasPrefix("imported 3,"), "\(fromStdin)")
  }

  @Test func aJSONExportIsToldFromItsContent() async throws {
    try await sandbox.succeed(["cookies", "set", "https://a.test/", "j=1; Max-Age=600"])
    let exported = try await sandbox.succeed(["cookies", "export", "--format", "json"])
    let outcome = try await sandbox.run(
      ["cookies", "import", "-", "--store", sandbox.path("copy.db")],
      stdin: "\n  " + exported.stdout)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.hasPrefix("imported 1,"))
  }

  @Test func aFileInNoFormatAtAllExits2AndImportsNothing() async throws {
    let file = try sandbox.write("this is\nnot a cookie file\n", to: "notes.txt")
    let outcome = try await sandbox.run(["cookies", "import", file])
    #expect(outcome.status == 2, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("Error: \(file): not a cookies.txt: no line could be read"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.defaultStore))
  }

  @Test func listAndDeleteTakeAnInternationalizedDomainInEitherForm() async throws {
    let file = try sandbox.write(Self.netscape, to: "cookies.txt")
    try await sandbox.succeed(["cookies", "import", file])
    let listed = try await sandbox.succeed(["cookies", "list", "--domain", "bücher.test"])
    #expect(listed.stdout.contains("xn--bcher-kva.test"), "\(listed)")
    #expect(!listed.stdout.contains("other.test"))
    try await sandbox.succeed(["cookies", "delete", "--domain", "BÜCHER.test"])
    #expect(try await names() == ["a", "c"])
  }

  @Test(arguments: [("example.com", ["a"]), ("bücher.test", ["b"]), ("xn--bcher-kva.test", ["b"])])
  func domainImportsOnlyThatDomain(domain: String, expected: [String]) async throws {
    let file = try sandbox.write(Self.netscape, to: "cookies.txt")
    let outcome = try await sandbox.run(["cookies", "import", file, "--domain", domain])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(try await names() == expected)
  }
}
