import WebsiteData

/// `sitedata storage delete URL [KEY]`: removes one item, or clears an area.
enum StorageDeleteCommand: Command {
  static let name = "delete"
  static let fullName = "storage delete"
  static let abstract = "Remove a key from an origin's web storage, or clear it."
  static let usage =
    "sitedata storage delete <url> (<key> | --all) [--site <url>] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   A URL of the origin.
      <key>                   The item's key (removeItem).

    OPTIONS:
      --all                   Remove every item of the area (clear).
    \(StorageAreaOptions.help)
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    To remove the web storage of whole sites, with what is partitioned under
    them: 'sitedata remove --types local-storage <site>'.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + StorageAreaOptions.options + [.flag("all")],
      of: Self.self)
    let all = parsed.flags.contains("all")
    let positionals = try parsed.positionals(all ? ["<url>"] : ["<url>", "<key>"], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    let key = try StorageAreaOptions.storageKey(
      url: positionals[0], parsed, store: .nonPersistent(), of: Self.self)
    guard let store = try await options.open(create: false) else {
      Console.out("deleted nothing\n")
      return .success
    }
    let area = store.webStorageStore.area(key)
    let before = await area.length
    do {
      if all { try await area.clear() } else { try await area.removeItem(positionals[1]) }
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    let deleted = before - (await area.length)
    await store.close()
    Console.out("deleted \(deleted) item\(deleted == 1 ? "" : "s")\n")
    return .success
  }
}
