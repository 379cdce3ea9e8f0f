import TextFormats
import WebsiteData

/// `sitedata stores list`: the named stores.
enum StoresListCommand: Command {
  static let name = "list"
  static let fullName = "stores list"
  static let abstract = "List the named stores (the default store is 'default')."
  static let usage = "sitedata stores list [--json]"

  static var discussion: String {
    """
    OPTIONS:
      --json                  Print a JSON array of {"name", "path"}.
      -h, --help              Show this help.

    Named stores live in $XDG_DATA_HOME/sitedata/<name>/store.db
    (~/.local/share/sitedata/... when XDG_DATA_HOME is not set). Use one with
    --store-id <name>.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [.flag("json")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let names: [String]
    do {
      names = try WebsiteDataStore.fetchAllDataStoreIdentifiers()
    } catch {
      throw .failure("\(error)")
    }
    let stores = names.map { name in
      (name, (try? WebsiteDataStore.path(forIdentifier: name)) ?? "")
    }
    if parsed.flags.contains("json") {
      let array = JSONValue.array(
        stores.map { .object([("name", .string($0.0)), ("path", .string($0.1))]) })
      Console.out(array.serialized() + "\n")
    } else if stores.isEmpty {
      Console.out("No stores.\n")
    } else {
      Console.out(Table(header: ["NAME", "PATH"], rows: stores.map { [$0.0, $0.1] }).text)
    }
    return .success
  }
}
