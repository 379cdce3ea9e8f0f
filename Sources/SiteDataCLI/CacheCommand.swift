/// `sitedata cache <subcommand>`: the HTTP cache of a store.
enum CacheCommand: CommandGroup {
  static let name = "cache"
  static let abstract = "List or clear the HTTP cache of a store."
  static var subcommands: [any Command.Type] { [CacheListCommand.self, CacheClearCommand.self] }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
