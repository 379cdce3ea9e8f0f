import WebsiteData

/// The `sitedata` tool: the command table and the dispatch of a command line
/// to one command.
enum SiteData {
  /// Every command, in the order `sitedata help` lists them.
  static var commands: [any Command.Type] {
    [
      HelpCommand.self, FetchCommand.self, CookiesCommand.self, StorageCommand.self,
      CacheCommand.self, RecordsCommand.self,
      RemoveCommand.self,
      KeyCommand.self, PolicyCommand.self, TrackingCommand.self, StoresCommand.self,
      StoreCommand.self,
      OAuthCommand.self,
      ReplayCommand.self,
      CompletionsCommand.self,
    ]
  }

  /// The top-level synopsis.
  static let usage = "sitedata <command> [<arguments>]"

  /// This release of `sitedata` (and of the WebsiteData package).
  static let version = "0.1.0"

  /// What `sitedata --version` prints: the version, then the C libraries
  /// loaded, with theirs.
  static var versionText: String {
    "sitedata \(version)\n" + LinkedLibraries.versions.joined(separator: ", ") + "\n"
  }

  /// The command named `name`.
  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  /// Runs the command line (without the program name) and returns the exit
  /// status, having written the output and any error report.
  static func main(_ arguments: [String]) async -> ExitStatus {
    let status: ExitStatus
    do {
      status = try await dispatch(arguments)
    } catch {
      Console.error(error.report)
      status = error.code.exitStatus
    }
    await OpenStores.shared.closeAll()
    return status
  }

  private static func dispatch(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    guard let first = arguments.first else {
      throw .usage("Missing command")
    }
    if first == "--help" || first == "-h" {
      Console.out(HelpCommand.topLevelHelp)
      return .success
    }
    if first == "--version" {
      guard arguments.count == 1 else { throw .usage("--version takes no arguments") }
      Console.out(versionText)
      return .success
    }
    guard let named = command(named: first) else {
      if first.hasPrefix("-") { throw .usage("Unknown option '\(first)'") }
      throw .usage("Unknown command '\(first)'")
    }
    let (command, rest) = CommandResolution.resolve(named, Array(arguments.dropFirst()))
    if Arguments.asksForHelp(rest) {
      Console.out(command.help)
      return .success
    }
    return try await command.run(rest)
  }
}
