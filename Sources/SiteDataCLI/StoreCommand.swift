import Foundation
import WebsiteData

/// `sitedata store check|move-aside [PATH]`: looks at a persistent store
/// (a file, or on a PostgreSQL server), and moves a damaged file out of the
/// way (nothing is ever deleted); `sitedata store copy FROM TO` copies a
/// store into a new one, between SQLite and PostgreSQL either way. The
/// store is `PATH`, or the one the store options name (the default store
/// without any).
enum StoreCommand: Command {
  static let name = "store"
  static let abstract = "Check, copy or move aside a persistent store."
  static let usage =
    "sitedata store check|move-aside [<path>] [<store options>]\n"
    + "       sitedata store copy <from> <to> [<store options>] [--to-key-file <path>]"

  static var discussion: String {
    """
    SUBCOMMANDS:
      check [<path>]          Open the store and report: cookies, HSTS entries,
                              damaged rows and SQLite's integrity check.
                              Nothing is written.
      move-aside [<path>]     Rename a damaged store (and its -wal, -shm files) to
                              <path>.damaged-<time> so that a new one can be
                              created; prints the new name. Needs no key.
      copy <from> <to>        Copy every cookie, HSTS entry and saved setting of
                              the store <from> into a new store <to>: a file
                              path or a postgresql:// URL, either way. <to>
                              must not exist (or be an empty schema). It is
                              locked with the same key as <from> (the key
                              options), or with --to-key-file <path>.

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
    if arguments.first == "copy" { return try await copy(Array(arguments.dropFirst())) }
    let parsed = try Arguments(arguments, options: StoreOptions.options(), of: Self.self)
    guard let subcommand = parsed.positionals.first else {
      throw .usage("Missing subcommand (check, copy or move-aside)", of: Self.self)
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
    if options.postgreSQL != nil {
      guard subcommand == "check" else {
        throw .usage("a PostgreSQL store is not a file to move aside", of: Self.self)
      }
      return try await check(options)
    }
    guard let path = options.path, FileManager.default.fileExists(atPath: path) else {
      throw .failure("there is no store at \(options.path ?? options.displayName)")
    }
    if subcommand == "check" { return try await check(options) }
    do {
      Console.out(try WebsiteDataStore.moveAside(path: path) + "\n")
    } catch {
      throw .failure(String(describing: error))
    }
    return .success
  }

  private static func check(_ options: StoreOptions) async throws(CLIError) -> ExitStatus {
    let store = try await options.open(with: try options.key(), create: false)
    do {
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
      throw .failure("\(options.displayName): \(error)")
    }
  }

  /// `store copy FROM TO`.
  private static func copy(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.value("to-key-file")], of: Self.self)
    let places = try parsed.positionals(["from", "to"], of: Self.self)
    guard parsed.values["store"] == nil, parsed.values["store-id"] == nil else {
      throw .usage("'store copy' takes the stores as <from> and <to>", of: Self.self)
    }
    let source = try await StoreOptions(
      try Arguments(
        arguments + ["--store", places[0]],
        options: StoreOptions.options() + [.value("to-key-file")], of: Self.self),
      of: Self.self)
    let target = try await StoreOptions(
      try Arguments(["--store", places[1]], options: StoreOptions.options(), of: Self.self),
      of: Self.self)
    if let path = target.path, FileManager.default.fileExists(atPath: path) {
      throw .failure("\(path) exists; 'store copy' makes a new store")
    }
    let key = try source.key()
    let from = try await source.open(with: key, create: false)
    let targetKey: KeyChoice =
      parsed.values["to-key-file"].map { .keyFile($0, isDefault: false) } ?? key
    let to = try await target.open(with: targetKey, create: true)
    do {
      let copied = try await from.copy(to: to)
      await to.close()
      Console.out(
        "copied \(copied.cookies) cookies, \(copied.hstsEntries) HSTS entries and"
          + " \(copied.webStorageItems) web storage items from \(source.displayName) to \(target.displayName)\n"
      )
      return .success
    } catch {
      throw .failure("cannot copy to \(target.displayName): \(StoreErrorText.reason(error))")
    }
  }
}
