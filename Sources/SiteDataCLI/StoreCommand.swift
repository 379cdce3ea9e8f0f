import Foundation
import WebsiteData

/// `sitedata store check|move-aside [PATH]`: looks at a persistent store
/// file, and moves a damaged one out of the way (nothing is ever deleted).
/// The store is `PATH`, or the one the store options name (the default store
/// without any).
enum StoreCommand: Command {
  static let name = "store"
  static let abstract = "Check a persistent store file, or move a damaged one aside."
  static let usage = "sitedata store check|move-aside [<path>] [<store options>]"

  static var discussion: String {
    """
    SUBCOMMANDS:
      check [<path>]          Open the store and report: cookies, HSTS entries,
                              damaged rows and SQLite's integrity check.
                              Nothing is written.
      move-aside [<path>]     Rename a damaged store (and its -wal, -shm files) to
                              <path>.damaged-<time> so that a new one can be
                              created; prints the new name. Needs no key.

    The store is <path> (the same as --store <path>), or the one the store
    options name; without either, the default store.

    OPTIONS:
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    EXIT STATUS:
      0   the store opened and is sound (check), or was moved (move-aside)
      1   the store is missing or cannot be opened (wrong key, damaged, newer
          schema...) or is not sound; the reason is on stderr
      64  usage error
    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    guard let subcommand = parsed.positionals.first else {
      throw .usage("Missing subcommand (check or move-aside)", of: Self.self)
    }
    guard subcommand == "check" || subcommand == "move-aside" else {
      throw .usage("Unknown subcommand '\(subcommand)'", of: Self.self)
    }
    guard parsed.positionals.count <= 2 else {
      throw .usage("Unexpected argument '\(parsed.positionals[2])'", of: Self.self)
    }
    let options: StoreOptions
    if parsed.positionals.count == 2 {
      guard parsed.values["store"] == nil, parsed.values["store-id"] == nil else {
        throw .usage("Give the store as <path> or with a store option, not both", of: Self.self)
      }
      let withPath = try Arguments(
        arguments + ["--store", parsed.positionals[1]], options: StoreOptions.options(),
        of: Self.self)
      options = try await StoreOptions(withPath, of: Self.self)
    } else {
      options = try await StoreOptions(parsed, of: Self.self)
    }
    guard let path = options.path, FileManager.default.fileExists(atPath: path) else {
      throw .failure("there is no store at \(options.path ?? options.displayName)")
    }
    if subcommand == "check" { return try await check(path, key: try options.key()) }
    do {
      Console.out(try WebsiteDataStore.moveAside(path: path) + "\n")
    } catch {
      throw .failure(String(describing: error))
    }
    return .success
  }

  private static func check(_ path: String, key: KeyChoice) async throws(CLIError) -> ExitStatus {
    do {
      let store = try await WebsiteDataStore.persistent(
        at: path, key: key.source,
        options: PersistentStoreOptions(keepsSessionCookies: true, createIfMissing: false))
      OpenStores.shared.add(store)
      let count = await store.httpCookieStore.count
      let hstsCount = await store.hstsStore.entries().count
      let damaged =
        await store.httpCookieStore.damagedRecordCount + store.hstsStore.damagedRecordCount
      let problems = try await store.integrityCheck()
      Console.out("cookies: \(count)\n")
      Console.out("hsts entries: \(hstsCount)\n")
      Console.out("damaged rows: \(damaged)\n")
      Console.out(
        "integrity: " + (problems.isEmpty ? "ok" : problems.joined(separator: "; ")) + "\n")
      return problems.isEmpty && damaged == 0 ? .success : .failure
    } catch {
      throw .failure("\(path): \(error)")
    }
  }
}
