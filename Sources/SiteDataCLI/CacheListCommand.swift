import TextFormats
import WebsiteData

/// `sitedata cache list`: the responses a store's HTTP cache holds.
enum CacheListCommand: Command {
  static let name = "list"
  static let fullName = "cache list"
  static let abstract = "List the responses in a store's HTTP cache."
  static let usage = "sitedata cache list [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --json                  Print a JSON array of {"url", "status", "size",
                              "received", "topLevelSite", "frameSite",
                              "crossSite"}.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Each response is cached under the site of the page that loaded it (RFC
    9111, partitioned as browsers partition their caches): the same URL
    loaded under two sites is two entries. Bodies are never printed.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.flag("json")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    let store = try await options.open(create: false)
    let entries = store?.httpCache.entries() ?? []
    if parsed.flags.contains("json") {
      Console.out(
        JSONValue.array(
          entries.map { entry in
            .object([
              ("url", .string(entry.url)), ("status", .integer(Int64(entry.status))),
              ("size", .integer(Int64(entry.size))),
              ("received", .string(RFC3339Timestamp.formatSeconds(entry.responseTime))),
              ("topLevelSite", .string(entry.partitionKey.topLevelSite)),
              ("frameSite", .string(entry.partitionKey.frameSite)),
              ("crossSite", .bool(entry.partitionKey.hasCrossSiteAncestor)),
            ])
          }
        ).serialized() + "\n")
    } else if entries.isEmpty {
      Console.out("The cache is empty.\n")
    } else {
      let rows = entries.map { entry in
        [
          entry.url, String(entry.status), RecordsCommand.byteCount(entry.size),
          entry.partitionKey.description,
        ]
      }
      Console.out(Table(header: ["URL", "STATUS", "SIZE", "PARTITION"], rows: rows).text)
    }
    return .success
  }
}
