import Testing

/// Every command and subcommand has help, reachable three ways.
@Suite struct HelpTests {
  static let commands = [
    "cookies list", "cookies get", "cookies set", "cookies delete", "cookies clear",
    "cookies import", "cookies export", "records", "remove", "key status", "key rotate",
    "key set-passphrase", "stores list", "stores remove", "store", "replay", "fetch", "help",
  ]

  @Test(arguments: commands)
  func everyCommandHasHelp(command: String) async throws {
    let words = command.split(separator: " ").map(String.init)
    let viaHelp = try await SiteDataProcess.run(["help"] + words)
    #expect(viaHelp.status == 0, "\(viaHelp)")
    #expect(viaHelp.stdout.contains("USAGE: sitedata \(command)"), "\(viaHelp.stdout)")
    #expect(viaHelp.stdout.contains("OVERVIEW: "))
    for flag in ["--help", "-h"] {
      let viaFlag = try await SiteDataProcess.run(words + [flag])
      #expect(viaFlag.status == 0)
      #expect(viaFlag.stdout == viaHelp.stdout)
      #expect(viaFlag.stderr.isEmpty)
    }
  }

  @Test func theTopLevelHelpListsEverySubcommand() async throws {
    let outcome = try await SiteDataProcess.run(["help"])
    for command in Self.commands {
      #expect(outcome.stdout.contains("  \(command) "), "\(command)")
    }
    #expect(outcome.stdout.contains("STORES AND KEYS"))
  }

  @Test(arguments: ["cookies", "key", "stores"])
  func groupsListTheirSubcommands(group: String) async throws {
    let outcome = try await SiteDataProcess.run([group, "--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("USAGE: sitedata \(group) <subcommand>"))
    #expect(outcome.stdout.contains("SUBCOMMANDS:"))
    for command in Self.commands where command.hasPrefix(group + " ") {
      #expect(outcome.stdout.contains(command))
    }
  }

  @Test func helpOfAnUnknownSubcommand() async throws {
    let outcome = try await SiteDataProcess.run(["help", "cookies", "frobnicate"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.hasPrefix("Error: Unknown subcommand 'frobnicate' of 'cookies'"))
  }

  @Test func aUsageErrorOfASubcommandPointsToItsHelp() async throws {
    let outcome = try await SiteDataProcess.run(["cookies", "get"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("See 'sitedata help cookies get' for more information."))
  }
}
