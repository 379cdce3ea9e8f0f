import Foundation
import WebsiteData

/// `sitedata store check|move-aside PATH`: looks at a persistent store file,
/// and moves a damaged one out of the way (nothing is ever deleted).
enum StoreCommand: Command {
  static let name = "store"
  static let abstract = "Check a persistent store file, or move a damaged one aside."
  static let usage = "sitedata store check <path> [--key-file <file>] | store move-aside <path>"

  static var discussion: String {
    """
    SUBCOMMANDS:
      check <path>            Open the store and report: cookies, damaged rows and
                              SQLite's integrity check. The key is the key file
                              (--key-file) or, when SITEDATA_PASSPHRASE is set,
                              that passphrase. Nothing is written.
      move-aside <path>       Rename a damaged store (and its -wal, -shm files) to
                              <path>.damaged-<time> so that a new one can be
                              created; prints the new name.

    OPTIONS:
      --key-file <file>       The store's key file.
      -h, --help              Show this help.

    EXIT STATUS:
      0   the store opened and is sound (check), or was moved (move-aside)
      1   the store cannot be opened (wrong key, damaged, newer schema...) or is
          not sound; the reason is on stderr
      64  usage error
    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(arguments, options: [.value("key-file")], of: Self.self)
    guard let subcommand = parsed.positionals.first else {
      throw .usage("Missing subcommand (check or move-aside)", of: Self.self)
    }
    guard parsed.positionals.count == 2 else {
      throw .usage(
        parsed.positionals.count < 2
          ? "Missing expected argument '<path>'"
          : "Unexpected argument '\(parsed.positionals[2])'", of: Self.self)
    }
    let path = parsed.positionals[1]
    switch subcommand {
    case "check":
      return try await check(path, keyFile: parsed.values["key-file"])
    case "move-aside":
      do {
        Console.out(try WebsiteDataStore.moveAside(path: path) + "\n")
      } catch {
        throw .failure(String(describing: error))
      }
      return .success
    default:
      throw .usage("Unknown subcommand '\(subcommand)'", of: Self.self)
    }
  }

  private static func check(_ path: String, keyFile: String?) async throws(CLIError)
    -> ExitStatus
  {
    let key: KeySource
    if var passphrase = ProcessInfo.processInfo.environment["SITEDATA_PASSPHRASE"].map({
      Array($0.utf8)
    }) {
      key = .passphrase(SecretBytes(consuming: &passphrase))
    } else if let keyFile {
      key = .keyFile(keyFile)
    } else {
      throw .usage("Give --key-file <file> or set SITEDATA_PASSPHRASE", of: Self.self)
    }
    do {
      let store = try await WebsiteDataStore.persistent(
        at: path, key: key, options: PersistentStoreOptions(createIfMissing: false))
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
