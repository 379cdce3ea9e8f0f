import Testing

/// `sitedata help`, `--help`, and the usage errors of the dispatcher.
@Suite struct HelpCommandTests {
  @Test(arguments: [["help"], ["--help"], ["-h"]])
  func topLevelHelp(arguments: [String]) async throws {
    let outcome = try await SiteDataProcess.run(arguments)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("USAGE: sitedata <command>"))
    #expect(outcome.stdout.contains("replay"))
    #expect(outcome.stdout.contains("help"))
    #expect(outcome.stderr.isEmpty)
  }

  @Test(arguments: [["help", "replay"], ["replay", "--help"], ["replay", "some.replay", "-h"]])
  func commandHelp(arguments: [String]) async throws {
    let outcome = try await SiteDataProcess.run(arguments)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("USAGE: sitedata replay"))
    #expect(outcome.stdout.contains("SCRIPT FORMAT:"))
    #expect(outcome.stdout.contains("2026-01-01T00:00:00Z"))
    for policy in [
      "allow-all", "block-third-party", "block-third-party-except-partitioned",
      "partition-third-party", "block-all",
    ] {
      #expect(outcome.stdout.contains(policy))
    }
    #expect(outcome.stderr.isEmpty)
  }

  @Test func helpOfHelp() async throws {
    let outcome = try await SiteDataProcess.run(["help", "--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("USAGE: sitedata help [<command> [<subcommand>]]"))
  }

  @Test(arguments: [
    (["frobnicate"], "Unknown command 'frobnicate'"),
    ([], "Missing command"),
    (["--frobnicate"], "Unknown option '--frobnicate'"),
    (["help", "frobnicate"], "Unknown command 'frobnicate'"),
    (["help", "replay", "extra"], "Unexpected argument 'extra'"),
  ])
  func usageErrors(arguments: [String], message: String) async throws {
    let outcome = try await SiteDataProcess.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout.isEmpty)
    let lines = outcome.stderr.split(separator: "\n")
    #expect(lines.first == "Error: \(message)")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: sitedata ") == true)
  }
}
