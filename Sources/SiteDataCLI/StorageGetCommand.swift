import WebsiteData

/// `sitedata storage get URL KEY`: prints one value of an origin's area.
enum StorageGetCommand: Command {
  static let name = "get"
  static let fullName = "storage get"
  static let abstract = "Print the value of one key in an origin's web storage."
  static let usage = "sitedata storage get <url> <key> [--site <url>] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   A URL of the origin.
      <key>                   The item's key.

    OPTIONS:
    \(StorageAreaOptions.help)
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Prints the value and a newline (getItem).

    EXIT STATUS:
      0   the key was found
      1   there is no such key, or the store failed
      64  usage error

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + StorageAreaOptions.options, of: Self.self)
    let positionals = try parsed.positionals(["<url>", "<key>"], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    let opened = try await options.open(create: false)
    let store = opened ?? .nonPersistent()
    let key = try StorageAreaOptions.storageKey(
      url: positionals[0], parsed, store: store, of: Self.self)
    guard let value = await store.webStorageStore.area(key).getItem(positionals[1]) else {
      throw .failure("no key '\(positionals[1])' in the web storage of \(key)")
    }
    Console.out(value + "\n")
    return .success
  }
}
