import TextFormats
import WebsiteData

/// `sitedata storage list [URL]`: the web storage areas of a store, or the
/// items of one area (keys and sizes; `storage get` shows a value).
enum StorageListCommand: Command {
  static let name = "list"
  static let fullName = "storage list"
  static let abstract = "List the web storage areas of a store, or the items of one."
  static let usage = "sitedata storage list [<url> [--site <url>]] [--json] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   List the items of this origin's area (without it,
                              every area).

    OPTIONS:
    \(StorageAreaOptions.help)
      --json                  Print a JSON array: of {"origin", "topLevelSite",
                              "partitioned", "items", "size"} for areas, of
                              {"key", "size", "modified"} for items.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Sizes count UTF-16 code units of keys and values, as browsers count an
    area's quota (5 MiB each). Values are never listed: 'sitedata storage get'
    prints one.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + StorageAreaOptions.options + [.flag("json")],
      of: Self.self)
    let url = parsed.positionals.first
    _ = try parsed.positionals(url == nil ? [] : ["<url>"], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    let opened = try await options.open(create: false)
    let store = opened ?? .nonPersistent()
    let json = parsed.flags.contains("json")
    if let url {
      let key = try StorageAreaOptions.storageKey(url: url, parsed, store: store, of: Self.self)
      let items = await store.webStorageStore.items(in: key)
      if json {
        Console.out(
          JSONValue.array(
            items.map { item in
              .object([
                ("key", .string(item.key)), ("size", .integer(Int64(item.size))),
                ("modified", .string(RFC3339Timestamp.formatSeconds(item.modifiedAt))),
              ])
            }
          ).serialized() + "\n")
      } else if items.isEmpty {
        Console.out("No items.\n")
      } else {
        let rows = items.map { item in
          [item.key, String(item.size), RFC3339Timestamp.formatSeconds(item.modifiedAt)]
        }
        Console.out(Table(header: ["KEY", "SIZE", "MODIFIED"], rows: rows).text)
      }
      return .success
    }
    let areas = await store.webStorageStore.areas()
    var counts: [StorageKey: Int] = [:]
    for area in areas {
      counts[area.storageKey] = await store.webStorageStore.items(in: area.storageKey).count
    }
    if json {
      Console.out(
        JSONValue.array(
          areas.map { area in
            .object([
              ("origin", .string(area.storageKey.origin)),
              ("topLevelSite", .string(area.storageKey.topLevelSite)),
              ("partitioned", .bool(area.storageKey.hasCrossSiteAncestor)),
              ("items", .integer(Int64(counts[area.storageKey] ?? 0))),
              ("size", .integer(Int64(area.usage))),
            ])
          }
        ).serialized() + "\n")
    } else if areas.isEmpty {
      Console.out("No web storage.\n")
    } else {
      let rows = areas.map { area in
        [
          area.storageKey.origin, area.storageKey.topLevelSite,
          String(counts[area.storageKey] ?? 0), String(area.usage),
        ]
      }
      Console.out(Table(header: ["ORIGIN", "TOP-LEVEL SITE", "ITEMS", "SIZE"], rows: rows).text)
    }
    return .success
  }
}
