import WebsiteData

/// `sitedata tracking summary|interact|enable|disable|clear`: a store's
/// tracking prevention (WebKit's Intelligent Tracking Prevention).
enum TrackingCommand: CommandGroup {
  static let name = "tracking"
  static let abstract = "Show and steer tracking prevention: trackers found, interactions."
  static var subcommands: [any Command.Type] {
    [
      TrackingSummaryCommand.self, TrackingRunCommand.self, TrackingInteractCommand.self,
      TrackingGrantCommand.self, TrackingRevokeCommand.self,
      TrackingSwitchCommand.Enable.self,
      TrackingSwitchCommand.Disable.self, TrackingClearCommand.self,
    ]
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    throw subcommandError(arguments)
  }

  /// The store the options name, created only when `create`.
  static func store<C: Command>(_ parsed: Arguments, create: Bool, of command: C.Type)
    async throws(CLIError) -> (WebsiteDataStore?, StoreOptions)
  {
    let options = try await StoreOptions(parsed, of: command)
    return (try await options.open(create: create), options)
  }
}

extension TrackingCommand {
  /// A URL or a bare domain as a URL record of `store`.
  static func siteURL<C: Command>(_ text: String, store: WebsiteDataStore, of command: C.Type)
    throws(CLIError) -> URLRecord
  {
    let full = text.contains("://") ? text : "https://\(text)/"
    guard let url = try? store.url(full), url.scheme == "http" || url.scheme == "https" else {
      throw .usage("'\(text)' is not a URL or a domain", of: command)
    }
    return url
  }
}
