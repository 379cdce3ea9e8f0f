import WebsiteData

/// `sitedata cache clear`: empties a store's HTTP cache, or the part of
/// some sites.
enum CacheClearCommand: Command {
  static let name = "clear"
  static let fullName = "cache clear"
  static let abstract = "Remove the responses of a store's HTTP cache."
  static let usage = "sitedata cache clear [--site <site>,...] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --site <sites>          Only these sites' responses (registrable domains,
                              comma-separated): those of their URLs and those
                              cached under their pages. Default: all.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("site")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let sites = parsed.values["site"].map {
      Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
    if let sites, sites.isEmpty || sites.contains("") {
      throw .usage("--site needs site names", of: Self.self)
    }
    let options = try await StoreOptions(parsed, of: Self.self)
    guard let store = try await options.open(create: false) else {
      Console.out("removed 0 responses\n")
      return .success
    }
    let before = store.httpCache.entries().count
    if let sites {
      store.httpCache.removeEntries(ofSites: sites)
    } else {
      store.httpCache.removeAll()
    }
    let removed = before - store.httpCache.entries().count
    await store.close()
    Console.out("removed \(removed) response\(removed == 1 ? "" : "s")\n")
    return .success
  }
}
