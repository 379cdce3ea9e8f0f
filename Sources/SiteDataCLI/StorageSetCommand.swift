import WebsiteData

/// `sitedata storage set URL KEY VALUE`: stores one item in an origin's area.
enum StorageSetCommand: Command {
  static let name = "set"
  static let fullName = "storage set"
  static let abstract = "Store a key and value in an origin's web storage."
  static let usage =
    "sitedata storage set <url> <key> (<value> | -) [--site <url>] [<store options>]"

  static var discussion: String {
    """
    ARGUMENTS:
      <url>                   A URL of the origin.
      <key>                   The item's key.
      <value>                 The value; '-' reads it from stdin (a secret is
                              then not in the command line), without its last
                              newline.

    OPTIONS:
    \(StorageAreaOptions.help)
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    setItem: an area holds at most 5 MiB (UTF-16 code units of its keys and
    values); a value that would outgrow it is refused and nothing changes.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + StorageAreaOptions.options, of: Self.self)
    let positionals = try parsed.positionals(["<url>", "<key>", "<value>"], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    // Check the URL first, so that a usage error creates no store.
    let key = try StorageAreaOptions.storageKey(
      url: positionals[0], parsed, store: .nonPersistent(), of: Self.self)
    var value = positionals[2]
    if value == "-" {
      // A value of a whole area is at most 5 Mi UTF-16 code units: at most
      // three UTF-8 bytes each.
      let bytes = try InputFile.readAll(
        "-", limits: InputFile.Limits(bytes: 3 * WebStorageStore.quota, kind: "a web storage value")
      )
      guard var text = String(validating: bytes, as: UTF8.self) else {
        throw .malformedInput("<stdin>: the value is not UTF-8")
      }
      if text.hasSuffix("\n") { text.removeLast() }
      value = text
    }
    guard let store = try await options.open(create: true) else {
      throw .failure("cannot open \(options.displayName)")
    }
    do {
      try await store.webStorageStore.area(key).setItem(positionals[1], value)
    } catch {
      throw StoreErrorText.changeFailed(error, displayName: options.displayName)
    }
    await store.close()
    Console.out("stored '\(positionals[1])' in the web storage of \(key)\n")
    return .success
  }
}
