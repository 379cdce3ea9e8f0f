import TextFormats
import WebsiteData

/// `sitedata tracking grant EMBEDDED --under TOP`: a storage access grant.
enum TrackingGrantCommand: Command {
  static let name = "grant"
  static let fullName = "tracking grant"
  static let abstract = "Grant an embedded site storage access under a top-level site."
  static let usage = "sitedata tracking grant <embedded> --under <top-level> [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --under <top-level>     The top-level site (a URL or a domain).
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    As the Storage Access API grants it: the embedded site's unpartitioned
    cookies are then sent in third-party contexts under that top-level site,
    whatever the third-party policy, for 30 days (less if your interaction
    with the embedded site expires first). Granted only when you interacted
    with the embedded site as a top-level site in the last 30 days (a fetch
    of it, or 'sitedata tracking interact'); otherwise exit 1.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("under")], of: Self.self)
    let embeddedText = try parsed.positionals(["<embedded>"], of: Self.self)[0]
    guard let topText = parsed.values["under"] else {
      throw .usage("--under names the top-level site", of: Self.self)
    }
    let (opened, options) = try await TrackingCommand.store(parsed, create: true, of: Self.self)
    guard let store = opened else { throw .failure("cannot open \(options.displayName)") }
    let embedded = try TrackingCommand.siteURL(embeddedText, store: store, of: Self.self)
    let top = try TrackingCommand.siteURL(topText, store: store, of: Self.self)
    let grant = await store.resourceLoadStatistics.requestStorageAccess(for: embedded, under: top)
    await store.close()
    guard let grant else {
      throw .failure(
        "storage access refused: no user interaction with \(embedded.host.serialized) in the"
          + " last 30 days (see 'sitedata tracking interact')")
    }
    Console.out(
      "granted: \(grant.embeddedDomain) under \(grant.topLevelDomain) until"
        + " \(RFC3339Timestamp.formatSeconds(grant.expiresAt))\n")
    return .success
  }
}
