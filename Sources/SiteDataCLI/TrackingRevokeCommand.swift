import WebsiteData

/// `sitedata tracking revoke EMBEDDED [--under TOP]`.
enum TrackingRevokeCommand: Command {
  static let name = "revoke"
  static let fullName = "tracking revoke"
  static let abstract = "Revoke an embedded site's storage access grants."
  static let usage = "sitedata tracking revoke <embedded> [--under <top-level>] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --under <top-level>     Only its grant under this top-level site.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("under")], of: Self.self)
    let embeddedText = try parsed.positionals(["<embedded>"], of: Self.self)[0]
    let (opened, _) = try await TrackingCommand.store(parsed, create: false, of: Self.self)
    guard let store = opened else {
      Console.out("revoked 0 grants\n")
      return .success
    }
    let embedded = try TrackingCommand.siteURL(embeddedText, store: store, of: Self.self)
    let top = try parsed.values["under"].map { text throws(CLIError) in
      try TrackingCommand.siteURL(text, store: store, of: Self.self)
    }
    let count = await store.resourceLoadStatistics.revokeStorageAccess(for: embedded, under: top)
    await store.close()
    Console.out("revoked \(count) grant\(count == 1 ? "" : "s")\n")
    return .success
  }
}
