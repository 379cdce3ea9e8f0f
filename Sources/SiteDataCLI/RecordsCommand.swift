import TextFormats
import WebsiteData

/// `sitedata records`: the sites a store holds data for, with the kinds of
/// data and their sizes (WebKit's `fetchDataRecords(ofTypes:)` with
/// `_WKWebsiteDataStoreFetchOptionComputeSizes`).
enum RecordsCommand: Command {
  static let name = "records"
  static let abstract = "List the sites a store holds data for, which kinds, and their sizes."
  static let usage = "sitedata records [--types <type>,...] [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --types <types>         The kinds of data, comma-separated: \(DataTypesOption.knownNames)
                              (default: all).
      --json                  Print a JSON array of {"site", "types", "size",
                              "sizes": {type: bytes}}.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Sites are registrable domains (example.com for www.example.com), or the
    host for IP addresses and public suffixes. Data partitioned under a site
    (CHIPS cookies, web storage of its embedded frames) counts for it too.
    Sizes are bytes: cookies' names and values, HSTS hosts, web storage keys
    and values as UTF-16. 'sitedata remove' removes them.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("types"), .flag("json")],
      of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let types = try DataTypesOption.types(parsed, of: Self.self) ?? WebsiteDataType.allTypes
    let options = try await StoreOptions(parsed, of: Self.self)
    let store = try await options.open(create: false)
    let records = await store?.dataRecords(ofTypes: types, computingSizes: true) ?? []
    if parsed.flags.contains("json") {
      let array = JSONValue.array(
        records.map { record in
          .object([
            ("site", .string(record.displayName)),
            ("types", .array(record.dataTypes.sorted().map { .string($0.rawValue) })),
            ("size", .integer(Int64(record.totalSize ?? 0))),
            (
              "sizes",
              .object(
                (record.sizes ?? [:]).sorted { $0.key < $1.key }.map {
                  ($0.key.rawValue, .integer(Int64($0.value)))
                })
            ),
          ])
        })
      Console.out(array.serialized() + "\n")
    } else if records.isEmpty {
      Console.out("No data.\n")
    } else {
      // One column per kind asked for, with the bytes each site holds.
      let kinds = types.sorted()
      let rows = records.map { record in
        [record.displayName]
          + kinds.map { kind in record.sizes?[kind].map(byteCount) ?? "-" }
      }
      Console.out(
        Table(header: ["SITE"] + kinds.map { $0.rawValue.uppercased() }, rows: rows).text)
    }
    return .success
  }

  /// `12 B`, `3.4 KiB`, `5.0 MiB`.
  static func byteCount(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return "\((value * 10).rounded() / 10) \(units[unit])"
  }
}
