import WebsiteData

/// `sitedata stores remove NAME`: deletes a named store and its files.
enum StoresRemoveCommand: Command {
  static let name = "remove"
  static let fullName = "stores remove"
  static let abstract = "Delete a named store and all its data."
  static let usage = "sitedata stores remove <name>"

  static var discussion: String {
    """
    ARGUMENTS:
      <name>                  The store's name (see 'sitedata stores list').

    OPTIONS:
      -h, --help              Show this help.

    Deletes the store's folder with every cookie in it. Its default key file
    (in $XDG_CONFIG_HOME/sitedata/keys/) is kept, so a new store of that name
    uses the same key.

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [], of: Self.self)
    let name = try parsed.positionals(["<name>"], of: Self.self)[0]
    let path: String
    do {
      path = try WebsiteDataStore.path(forIdentifier: name)
    } catch {
      throw .usage("'\(name)' is not a valid store name: \(error)", of: Self.self)
    }
    do {
      try WebsiteDataStore.removeDataStore(forIdentifier: name)
    } catch {
      throw .failure("\(error)")
    }
    Console.out("removed the store '\(name)' (\(path))\n")
    return .success
  }
}
