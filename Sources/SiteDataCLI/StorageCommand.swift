/// `sitedata storage <subcommand>`: inspect and edit the web storage
/// (`localStorage`) of a store.
enum StorageCommand: CommandGroup {
  static let name = "storage"
  static let abstract = "Inspect and edit the web storage (localStorage) of a store."
  static var subcommands: [any Command.Type] {
    [
      StorageListCommand.self, StorageGetCommand.self, StorageSetCommand.self,
      StorageDeleteCommand.self,
    ]
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
