import Foundation
import Testing

/// The progress line of `cookies import` and `cookies export`: drawn on stderr only when it is a
/// terminal (here a pseudo-terminal made by util-linux `script`), cleared at
/// the end; never in a pipe, nor with `--quiet`.
@Suite struct ImportProgressCommandTests {
  let sandbox: CLISandbox

  init() throws {
    sandbox = try CLISandbox()
  }

  static let lines =
    "# Netscape HTTP Cookie File\n"
    + (0..<3).map { "www.example.com\tFALSE\t/\tFALSE\t0\tc\($0)\t\($0)\n" }.joined()

  /// Runs the import in a pseudo-terminal; returns what the terminal showed.
  func inTerminal(_ options: [String]) async throws -> SiteDataProcess.Outcome {
    let file = try sandbox.write(Self.lines, to: "cookies.txt")
    // `script` runs one shell command line: sitedata's path and arguments
    // (no spaces in the sandbox's paths).
    return try await sandbox.run(
      ["cookies", "import", file] + options,
      launcher: ["/bin/sh", "-c", "exec /usr/bin/script -q -e -c \"$0 $*\" /dev/null"])
  }

  @Test func aTerminalShowsTheCountAndRateThenClearsTheLine() async throws {
    let outcome = try await inTerminal([])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("importing 3/3 cookies, "), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("\r\u{1B}[Kimported 3, skipped 0"), "\(outcome.stdout)")
  }

  @Test func quietShowsNoProgress() async throws {
    let outcome = try await inTerminal(["--quiet"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stdout.contains("importing"), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("imported 3, skipped 0"))
  }

  /// Imports the three cookies, then exports them in a pseudo-terminal.
  func exportInTerminal(_ options: [String]) async throws -> SiteDataProcess.Outcome {
    let file = try sandbox.write(Self.lines, to: "cookies.txt")
    try await sandbox.succeed(["cookies", "import", file])
    return try await sandbox.run(
      ["cookies", "export", "--output", sandbox.root + "/out.txt"] + options,
      launcher: ["/bin/sh", "-c", "exec /usr/bin/script -q -e -c \"$0 $*\" /dev/null"])
  }

  @Test(arguments: ["netscape", "json"])
  func anExportShowsItsProgressOnATerminal(format: String) async throws {
    let outcome = try await exportInTerminal(["--format", format])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("exporting 3/3 cookies, "), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("\r\u{1B}[Kexported 3 cookies to "), "\(outcome.stdout)")
    let quiet = try await exportInTerminal(["--format", format, "-q"])
    #expect(!quiet.stdout.contains("exporting"), "\(quiet.stdout)")
    // In a pipe: only the summary.
    let piped = try await sandbox.run(["cookies", "export", "--output", sandbox.root + "/p.txt"])
    #expect(piped.stderr.isEmpty && piped.stdout == "exported 3 cookies to \(sandbox.root)/p.txt\n")
  }

  @Test func aPipeShowsNoProgress() async throws {
    let file = try sandbox.write(Self.lines, to: "cookies.txt")
    let outcome = try await sandbox.run(["cookies", "import", file])
    #expect(outcome.stderr.isEmpty, "\(outcome)")
    #expect(
      outcome.stdout == "imported 3, skipped 0 (unreadable), rejected 0 (refused by the store)\n")
  }
}
