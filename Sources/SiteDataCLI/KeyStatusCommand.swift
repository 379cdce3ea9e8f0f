import Foundation
import TextFormats
import WebsiteData

/// `sitedata key status`: which store, which key, and whether the key opens
/// it.
enum KeyStatusCommand: Command {
  static let name = "status"
  static let fullName = "key status"
  static let abstract = "Show which key a store uses and whether it opens the store."
  static let usage = "sitedata key status [--json] [<store options>]"

  static var discussion: String {
    """
    OPTIONS:
      --json                  Print one JSON object.
    \(StoreOptions.optionsHelp())
      -h, --help              Show this help.

    Prints the store's file, whether it exists, what locks it (a key file or a
    passphrase), the key this command line gives, and whether that key opens
    the store. Nothing is created or changed; the key is never shown.

    EXIT STATUS:
      0   the key opens the store, or the store does not exist yet
      1   the key does not open it, is missing, or the store is damaged
      64  usage error

    """
  }

  static func run(_ arguments: [String]) async throws(CLIError) -> ExitStatus {
    let parsed = try Arguments(
      arguments, options: StoreOptions.options() + [.flag("json")], of: Self.self)
    _ = try parsed.positionals([], of: Self.self)
    let options = try await StoreOptions(parsed, of: Self.self)
    if options.postgreSQL != nil {
      throw .usage(
        "'key status' reads a store file; for a PostgreSQL store use 'sitedata key rotate'",
        of: Self.self)
    }
    guard let path = options.path else {
      throw .usage("an ephemeral store has no key", of: Self.self)
    }
    let key = try options.key()
    var exists = try options.exists()
    var protection: StoreKeyProtection?
    var problem: String?
    var cookies: Int?
    if exists {
      do {
        protection = try await WebsiteDataStore.keyProtection(ofStoreAt: path)
        let store = try await options.open(with: key, create: false)
        cookies = await store.httpCookieStore.count
      } catch let error as CLIError {
        problem = error.message
      } catch let error as WebsiteDataStoreError where error.code == .notFound {
        exists = false
      } catch {
        problem = (await options.failure(opening: error, key: key)).message
      }
    }
    let keyFile: String? =
      if case .keyFile(let file, _) = key { file } else { nil }
    let keyFileExists = keyFile.map { FileManager.default.fileExists(atPath: $0) }
    if parsed.flags.contains("json") {
      let object = JSONValue.object([
        ("store", .string(path)),
        ("exists", .bool(exists)),
        ("lockedWith", .string(protection?.description)),
        ("key", .string(key.description)),
        ("keyFile", .string(keyFile)),
        ("keyFileExists", keyFileExists.map(JSONValue.bool) ?? .null),
        ("keyOpensStore", exists ? .bool(problem == nil) : .null),
        ("cookies", .integer(cookies)),
        ("problem", .string(problem)),
      ])
      Console.out(object.serialized() + "\n")
    } else {
      var lines = ["store: \(path)", "exists: \(exists ? "yes" : "no (created on first write)")"]
      if exists { lines.append("locked with: \(protection?.description ?? "no key yet")") }
      lines.append("key: \(key.description)")
      if let keyFile, let keyFileExists {
        lines.append(
          "key file: "
            + (keyFileExists ? "present" : "missing" + (exists ? "" : " (created with the store)"))
            + " (\(keyFile))")
      }
      if exists { lines.append("key opens the store: \(problem == nil ? "yes" : "no")") }
      if let cookies { lines.append("cookies: \(cookies)") }
      Console.out(lines.joined(separator: "\n") + "\n")
    }
    guard let problem else { return .success }
    Console.error("Error: \(problem)\n")
    return .failure
  }
}
