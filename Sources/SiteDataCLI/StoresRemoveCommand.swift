import Foundation
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

    Deletes the store's folder with every cookie in it, and its default key
    file (in $XDG_CONFIG_HOME/sitedata/keys/: <name>.key, and the same file
    under the store's key identifier, store-<id>.key), and says which. A key
    given by --key-file or kept under a passphrase is not touched. (A copy of
    the store made elsewhere still needs its key: copy the key file first.)

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
    let environment = ProcessInfo.processInfo.environment
    let keyFile = try? WebsiteDataStore.defaultKeyFile(
      forIdentifier: name, environment: environment)
    let identifier = try? await WebsiteDataStore.keyIdentifier(ofStoreAt: path)
    do {
      try WebsiteDataStore.removeDataStore(forIdentifier: name)
    } catch {
      throw .failure("\(error)")
    }
    // The key under the store's identifier goes only when it is the same
    // file as the named one (a link made when the store was opened).
    var linked: String?
    if let identifier, let keyFile,
      let file = StoreOptions.keyFile(forIdentifier: identifier, environment: environment),
      isSameFile(file, keyFile)
    {
      linked = file
    }
    let removed = [linked, keyFile].compactMap { $0 }.filter { unlink($0) == 0 }
    let keys =
      removed.isEmpty ? "" : " and its key file (\(removed.joined(separator: ", ")))"
    Console.out("removed the store '\(name)' (\(path))\(keys)\n")
    return .success
  }

  /// Whether two paths name one file (one inode on one device).
  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }
}
