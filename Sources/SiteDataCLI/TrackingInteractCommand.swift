import WebsiteData

/// `sitedata tracking interact URL`: records a user interaction.
enum TrackingInteractCommand: Command {
  static let name = "interact"
  static let fullName = "tracking interact"
  static let abstract = "Record a user interaction with a site (its cookies are then kept)."
  static let usage = "sitedata tracking interact <url-or-domain> [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Records that you used the site as a top-level site, as a click in a
    browser does: for 30 days tracking prevention does not block its cookies
    in third-party contexts, even if it is classified as a tracker.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    let site = try parsed.positionals(["<url-or-domain>"], of: Self.self)[0]
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: Self.self)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    let url = try TrackingCommand.siteURL(site, store: store, of: Self.self)
    await store.resourceLoadStatistics.recordUserInteraction(with: url)
    await store.close()
    Console.out("recorded a user interaction with \(url.host.serialized)\n")
    return .success
  }
}
