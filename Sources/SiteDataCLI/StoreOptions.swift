import Foundation
import WebsiteData

/// The store a command works on, and the key that opens it: the options
/// every store command shares.
///
/// Store: `--store PATH` (a store file), `--store postgresql://…` (a store
/// on a PostgreSQL server), `--store-id NAME` (a named store
/// under `$XDG_DATA_HOME/sitedata/NAME/`), `--ephemeral` (a store in memory,
/// for commands that accept it), or the named store `default`.
///
/// Key, in this order: `--key-file PATH`; `--passphrase-stdin` (one line of
/// stdin); `SITEDATA_PASSPHRASE`; else the store's default key file under
/// `$XDG_CONFIG_HOME/sitedata/keys/` (created 0600 with the store). Each store
/// has its own default key file, so that rotating one store's key never
/// touches another store.
struct StoreOptions {
  /// Where the store is.
  enum Location: Equatable {
    /// A named store (the default store is the one named `default`).
    case named(String)
    /// A store file given by path.
    case file(String)
    /// A store on a PostgreSQL server (`--store postgresql://…`): the
    /// connection string, never shown (it may hold a password).
    case postgreSQL(String)
    /// A store in memory that keeps nothing.
    case ephemeral
  }

  /// The environment variable holding the passphrase.
  static let passphraseVariable = "SITEDATA_PASSPHRASE"

  /// The options, for ``Arguments``; `--ephemeral` only where `ephemeral`.
  static func options(ephemeral: Bool = false) -> [Arguments.Option] {
    [.value("store"), .value("store-id"), .value("key-file"), .flag("passphrase-stdin")]
      + (ephemeral ? [.flag("ephemeral")] : [])
  }

  /// The OPTIONS lines describing the store options, for help texts.
  static func optionsHelp(ephemeral: Bool = false) -> String {
    var lines = """
        --store <path|url>      The store file to use, or a store on a PostgreSQL
                                server (postgresql://user@host/db?sslmode=...).
        --store-id <name>       The named store to use (see 'sitedata stores list').
        --key-file <path>       The store's key file.
        --passphrase-stdin      Read the store's passphrase from the first line of
                                stdin (see also SITEDATA_PASSPHRASE).
      """
    if ephemeral {
      lines += """

          --ephemeral             Use an empty store in memory that keeps nothing.
        """
    }
    return lines
  }

  /// How stores and keys are chosen, for `sitedata help`.
  static var helpText: String {
    """
      Without --store or --store-id, commands use the store named 'default':
      $XDG_DATA_HOME/sitedata/default/store.db (~/.local/share/sitedata/... when
      XDG_DATA_HOME is not set). A store is created when a command first adds
      data to it, locked with the key given: --key-file, --passphrase-stdin or
      SITEDATA_PASSPHRASE, else the store's own default key file
      $XDG_CONFIG_HOME/sitedata/keys/<name>.key (~/.config/sitedata/...),
      created with mode 0600. Session cookies are kept on disk. The store may
      be in use by another process at the same time. See 'sitedata help key'.
    """
  }

  /// The store.
  let location: Location
  /// The connection string of a store on a PostgreSQL server.
  var postgreSQL: String? {
    if case .postgreSQL(let url) = location { url } else { nil }
  }
  /// Whether the store is persistent (a file or a server's).
  var isPersistent: Bool { path != nil || postgreSQL != nil }
  /// The store file; `nil` for an ephemeral store.
  let path: String?
  /// The key file used when none is given: one per store, in
  /// ``WebsiteDataStore/defaultKeyFolder(environment:)``: for a named store
  /// ``WebsiteDataStore/defaultKeyFile(forIdentifier:environment:)``
  /// (`<name>.key`, as `WebPage` uses for the default store), and for a store
  /// file `store-<key identifier>.key`, named after the identifier the store
  /// keeps in its own metadata (``WebsiteDataStore/keyIdentifier(ofStoreAt:)``),
  /// so that the key follows the store when it is moved or copied.
  let defaultKeyFile: String
  /// The key identifier a store file created by this command records
  /// (``defaultKeyFile`` is named after it); `nil` when the store exists.
  let newStoreKeyIdentifier: String?
  /// Whether ``defaultKeyFile`` is the name a store file's key had before
  /// stores named their keys (`file-<name>-<path hash>.key`): once the store
  /// is open (and so has an identifier), the key is linked to its new name.
  let defaultKeyFileIsByPath: Bool
  /// `--key-file`, when given.
  let explicitKeyFile: String?
  /// Whether `--passphrase-stdin` was given.
  let passphraseFromStdin: Bool
  /// The process environment.
  let environment: [String: String]

  /// Reads the options from `parsed`.
  ///
  /// - Throws: a usage error of `command` for conflicting options or a store
  ///   name that is not valid.
  init<C: Command>(_ parsed: Arguments, of command: C.Type) async throws(CLIError) {
    environment = ProcessInfo.processInfo.environment
    let chosen = [
      parsed.values["store"].map { _ in "--store" },
      parsed.values["store-id"].map { _ in "--store-id" },
      parsed.flags.contains("ephemeral") ? "--ephemeral" : nil,
    ].compactMap { $0 }
    guard chosen.count <= 1 else {
      throw .usage("\(chosen.joined(separator: " and ")) cannot be combined", of: command)
    }
    if let path = parsed.values["store"] {
      guard !path.isEmpty else { throw .usage("--store needs a path", of: command) }
      location =
        WebsiteDataStore.isPostgreSQLLocation(path) ? .postgreSQL(path) : .file(path)
    } else if let name = parsed.values["store-id"] {
      location = .named(name)
    } else if parsed.flags.contains("ephemeral") {
      location = .ephemeral
    } else {
      location = .named(WebsiteDataStore.defaultIdentifier)
    }
    do {
      (path, defaultKeyFile, newStoreKeyIdentifier, defaultKeyFileIsByPath) = try await Self.files(
        of: location, environment: environment)
    } catch {
      throw .usage(
        "'\(parsed.values["store-id"] ?? "")' is not a valid store name: \(error)", of: command)
    }
    explicitKeyFile = parsed.values["key-file"]
    passphraseFromStdin = parsed.flags.contains("passphrase-stdin")
    if explicitKeyFile != nil && passphraseFromStdin {
      throw .usage("--key-file and --passphrase-stdin cannot be combined", of: command)
    }
    if explicitKeyFile == "" { throw .usage("--key-file needs a path", of: command) }
  }

  // MARK: - Paths

  /// How messages name the store.
  var displayName: String {
    switch location {
    case .named(let name): "the store '\(name)' (\(path ?? name))"
    case .file(let path): "the store \(path)"
    case .postgreSQL(let url): "the store \(WebsiteDataStore.redactedLocation(url))"
    case .ephemeral: "the ephemeral store"
    }
  }

  /// The store file of `location` (`nil` for an ephemeral store), its
  /// default key file (see ``defaultKeyFile``) and, for a store file not yet
  /// created, the key identifier it will record.
  ///
  /// A store file written before stores named their keys (Migrations/0004)
  /// has its key at `file-<file name>-<hash of its absolute path>.key`: that
  /// file is used until it is also under the identifier's name, to which
  /// ``open(with:create:)`` links it once the store is open, so that from
  /// then on it follows the store.
  ///
  /// - Throws: `.invalidArgument` for a store name that is not valid.
  private static func files(of location: Location, environment: [String: String]) async throws
    -> (path: String?, keyFile: String, newKeyIdentifier: String?, keyFileIsByPath: Bool)
  {
    let folder = WebsiteDataStore.defaultKeyFolder(environment: environment)
    switch location {
    case .named(let name):
      return (
        try WebsiteDataStore.path(
          forIdentifier: name, root: WebsiteDataStore.defaultRoot(environment: environment)),
        try WebsiteDataStore.defaultKeyFile(forIdentifier: name, environment: environment), nil,
        false
      )
    case .file(let path):
      guard FileManager.default.fileExists(atPath: path) else {
        let identifier = PersistentStoreOptions.randomKeyIdentifier()
        return (
          path, keyFile(forIdentifier: identifier, environment: environment)!, identifier, false
        )
      }
      let absolute = absolute(path)
      let base = (absolute as NSString).lastPathComponent.map { character in
        character.isLetter || character.isNumber || character == "." || character == "-"
          ? character : "_"
      }
      let legacy = "\(folder)/file-\(String(base))-\(fnv1a(absolute)).key"
      // Not a store, or damaged: opening it says so, with this name in no message.
      guard let identifier = try? await WebsiteDataStore.keyIdentifier(ofStoreAt: path),
        let named = keyFile(forIdentifier: identifier, environment: environment)
      else { return (path, legacy, nil, true) }
      if !FileManager.default.fileExists(atPath: named)
        && FileManager.default.fileExists(atPath: legacy)
      {
        return (path, legacy, nil, true)
      }
      return (path, named, nil, false)
    case .postgreSQL(let url):
      // Named after the server and database (no password): a fleet's
      // clients usually share a key file given with --key-file instead.
      let name = "\(folder)/postgresql-\(fnv1a(WebsiteDataStore.redactedLocation(url))).key"
      return (nil, name, nil, false)
    case .ephemeral:
      return (nil, "\(folder)/ephemeral.key", nil, false)
    }
  }

  /// The default key file of a store file whose key identifier is
  /// `identifier`: `store-<identifier>.key` in the key folder; `nil` unless
  /// the identifier is lower-case hex (a store's metadata names no file
  /// outside that folder).
  static func keyFile(forIdentifier identifier: String, environment: [String: String]) -> String? {
    guard !identifier.isEmpty, identifier.utf8.allSatisfy(ASCII.isHexDigit) else { return nil }
    return WebsiteDataStore.defaultKeyFolder(environment: environment) + "/store-\(identifier).key"
  }

  /// `path` made absolute against the working directory, `.` and `..`
  /// removed.
  static func absolute(_ path: String) -> String {
    let joined =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return (joined as NSString).standardizingPath
  }

  /// 64-bit FNV-1a of `text` in hex: a stable name, not a secret.
  private static func fnv1a(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  // MARK: - Keys

  /// The key to open (or create) the store with, by the rule in the type's
  /// documentation. Reads stdin for `--passphrase-stdin`.
  func key() throws(CLIError) -> KeyChoice {
    if let explicitKeyFile { return .keyFile(explicitKeyFile, isDefault: false) }
    if passphraseFromStdin {
      return .passphrase(
        try SecretInput.passphraseFromStdin(prompt: "Passphrase: "), origin: "stdin")
    }
    if let secret = try SecretInput.passphrase(
      fromEnvironment: Self.passphraseVariable, environment)
    {
      return .passphrase(secret, origin: Self.passphraseVariable)
    }
    return .keyFile(defaultKeyFile, isDefault: true)
  }
}

/// The key a command uses, and where it came from (for messages).
enum KeyChoice {
  /// A key file; `isDefault` when it is the store's default key file.
  case keyFile(String, isDefault: Bool)
  /// A passphrase; `origin` is `stdin` or the environment variable's name.
  case passphrase(SecretBytes, origin: String)

  /// The library's key source.
  var source: KeySource {
    switch self {
    case .keyFile(let path, _): .keyFile(path)
    case .passphrase(let secret, _): .passphrase(secret)
    }
  }

  /// The kind of key.
  var protection: StoreKeyProtection {
    switch self {
    case .keyFile: .keyFile
    case .passphrase: .passphrase
    }
  }

  /// `the key file PATH` or `the passphrase from stdin`; never the secret.
  var description: String {
    switch self {
    case .keyFile(let path, let isDefault):
      "the key file \(path)" + (isDefault ? " (the store's default key file)" : "")
    case .passphrase(_, let origin):
      "the passphrase from \(origin)"
    }
  }
}
