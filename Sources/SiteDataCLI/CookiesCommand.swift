/// `sitedata cookies <subcommand>`: inspect and edit the cookies of a store.
enum CookiesCommand: CommandGroup {
  static let name = "cookies"
  static let abstract = "Inspect, explain, edit, import and export the cookies of a store."
  static var subcommands: [any Command.Type] {
    [
      CookiesListCommand.self, CookiesGetCommand.self, CookiesSetCommand.self,
      CookiesDeleteCommand.self, CookiesClearCommand.self, CookiesImportCommand.self,
      CookiesExportCommand.self,
    ]
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }
}
