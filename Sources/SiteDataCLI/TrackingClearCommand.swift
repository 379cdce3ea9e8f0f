import WebsiteData

/// `sitedata tracking clear`: forgets every statistic.
enum TrackingClearCommand: Command {
  static let name = "clear"
  static let fullName = "tracking clear"
  static let abstract = "Forget what tracking prevention learnt (classifications, interactions)."
  static let usage = "sitedata tracking clear [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Removes every domain's statistics: no domain is prevalent afterwards,
    and interactions are forgotten. Cookies are not touched.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let (store, _) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    await store?.resourceLoadStatistics.removeStatistics()
    await store?.close()
    Console.out("tracking statistics cleared\n")
    return .success
  }
}
