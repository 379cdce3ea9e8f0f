import TextFormats
import WebsiteData

/// `sitedata records`: the sites a store holds data for, with the kinds of
/// data (WebKit's `fetchDataRecords(ofTypes:)`).
enum RecordsCommand: Command {
  static let name = "records"
  static let abstract = "List the sites a store holds data for, and which kinds."
  static let usage = "sitedata records [--types <type>,...] [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --types <types>         The kinds of data, comma-separated: \(DataTypesOption.knownNames)
                              (default: all).
      --json                  Print a JSON array of {"site", "types"}.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Sites are registrable domains (example.com for www.example.com), or the
    host for IP addresses and public suffixes. 'sitedata remove' removes them.

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
    let records = await store?.dataRecords(ofTypes: types) ?? []
    if parsed.flags.contains("json") {
      let array = JSONValue.array(
        records.map { record in
          .object([
            ("site", .string(record.displayName)),
            ("types", .array(record.dataTypes.sorted().map { .string($0.rawValue) })),
          ])
        })
      Console.out(array.serialized() + "\n")
    } else if records.isEmpty {
      Console.out("No data.\n")
    } else {
      let rows = records.map { record in
        [record.displayName, record.dataTypes.sorted().map(\.rawValue).joined(separator: ",")]
      }
      Console.out(Table(header: ["SITE", "TYPES"], rows: rows).text)
    }
    return .success
  }
}
