/// `sitedata stores list|remove`: the named stores under the data folder
/// (WebKit's `fetchAllDataStoreIdentifiers`, `removeDataStore`). Not to be
/// confused with `sitedata store check|move-aside`, which repairs one store
/// file.
enum StoresCommand: CommandGroup {
  static let name = "stores"
  static let abstract = "List or remove the named stores."
  static var subcommands: [any Command.Type] {
    [StoresListCommand.self, StoresRemoveCommand.self]
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
