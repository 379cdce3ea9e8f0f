import CookieCore
import Foundation

extension WebsiteDataStore {
  /// The name of the default store: the store a page uses when its
  /// configuration names none, and the one the `sitedata` tool uses without
  /// `--store` or `--store-id`.
  public static let defaultIdentifier = "default"

  /// The folder named stores live in: `$XDG_DATA_HOME/sitedata`, or
  /// `~/.local/share/sitedata` when `XDG_DATA_HOME` is unset or relative
  /// (XDG Base Directory Specification).
  public static var defaultRoot: String {
    defaultRoot(environment: ProcessInfo.processInfo.environment)
  }

  /// ``defaultRoot`` for the variables in `environment`.
  public static func defaultRoot(environment: [String: String]) -> String {
    xdgFolder("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
  }

  /// The folder of the stores' default key files:
  /// `$XDG_CONFIG_HOME/sitedata/keys`, or `~/.config/sitedata/keys` when
  /// `XDG_CONFIG_HOME` is unset or relative (XDG Base Directory
  /// Specification).
  public static func defaultKeyFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    xdgFolder("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/keys"
  }

  /// The key file of the named store `identifier` when no key is given:
  /// `<identifier>.key` in ``defaultKeyFolder(environment:)``, one per store
  /// so that rotating one store's key never touches another. The file is
  /// created (mode 0600) with the store.
  ///
  /// - Throws: `.invalidArgument` for a name that is not a store name.
  public static func defaultKeyFile(
    forIdentifier identifier: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> String {
    try validate(identifier: identifier)
    return defaultKeyFolder(environment: environment) + "/\(identifier).key"
  }

  /// Opens (or creates) the default store (WebKit's
  /// `WKWebsiteDataStore.default()`): the named store ``defaultIdentifier``
  /// under ``defaultRoot(environment:)``, locked with its
  /// ``defaultKeyFile(forIdentifier:environment:)`` (created 0600 if
  /// missing). The `sitedata` tool opens the same store with the same key
  /// by default.
  ///
  /// - Throws: as ``named(_:key:root:configuration:options:clock:domainFacts:)``;
  ///   `.wrongKey` when the store was locked with another key.
  public static func `default`(
    options: PersistentStoreOptions = PersistentStoreOptions(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws -> WebsiteDataStore {
    try await named(
      defaultIdentifier,
      key: .keyFile(defaultKeyFile(forIdentifier: defaultIdentifier, environment: environment)),
      root: defaultRoot(environment: environment), options: options)
  }

  /// `$<variable>/sitedata` when the variable holds an absolute path, else
  /// `$HOME/<fallback>/sitedata`.
  private static func xdgFolder(
    _ variable: String, fallback: String, environment: [String: String]
  ) -> String {
    if let folder = environment[variable], folder.hasPrefix("/") {
      return folder + "/sitedata"
    }
    return (environment["HOME"] ?? NSHomeDirectory()) + "/\(fallback)/sitedata"
  }

  /// The file of the named store `identifier` under `root`.
  public static func path(forIdentifier identifier: String, root: String = defaultRoot) throws
    -> String
  {
    try validate(identifier: identifier)
    return "\(root)/\(identifier)/store.db"
  }

  /// Opens (or creates) the named store `identifier` under `root` (WebKit's
  /// `WKWebsiteDataStore(forIdentifier:)`).
  ///
  /// - Throws: `.invalidArgument` for a name that is not 1–64 characters of
  ///   letters, digits, `.`, `_` and `-` (not starting with `.`); otherwise
  ///   as ``persistent(at:key:configuration:options:clock:domainFacts:)``.
  public static func named(
    _ identifier: String, key: KeySource, root: String = defaultRoot,
    configuration: CookieJarConfiguration = .browser,
    options: PersistentStoreOptions = PersistentStoreOptions(),
    clock: any StoreClock = SystemStoreClock(),
    domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) async throws -> WebsiteDataStore {
    try await persistent(
      at: path(forIdentifier: identifier, root: root), key: key, configuration: configuration,
      options: options, clock: clock, domainFacts: domainFacts)
  }

  /// The names of the stores under `root`, sorted (WebKit's
  /// `fetchAllDataStoreIdentifiers`).
  public static func fetchAllDataStoreIdentifiers(root: String = defaultRoot) throws -> [String] {
    guard FileManager.default.fileExists(atPath: root) else { return [] }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: root)
    } catch {
      throw WebsiteDataStoreError(.io, "cannot list the stores in \(root)")
    }
    return names.filter {
      (try? validate(identifier: $0)) != nil
        && FileManager.default.fileExists(atPath: "\(root)/\($0)/store.db")
    }.sorted()
  }

  /// Removes the named store `identifier` and all its files (WebKit's
  /// `removeDataStore(forIdentifier:)`).
  ///
  /// - Throws: `.notFound` when there is no such store.
  public static func removeDataStore(forIdentifier identifier: String, root: String = defaultRoot)
    throws
  {
    let file = try path(forIdentifier: identifier, root: root)
    guard FileManager.default.fileExists(atPath: file) else {
      throw WebsiteDataStoreError(.notFound, "no store named \(identifier)")
    }
    do {
      try FileManager.default.removeItem(atPath: "\(root)/\(identifier)")
    } catch {
      throw WebsiteDataStoreError(.io, "cannot remove the store \(identifier)")
    }
  }

  static func validate(identifier: String) throws {
    let allowed = identifier.utf8.allSatisfy { byte in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
    guard allowed, (1...64).contains(identifier.utf8.count), !identifier.hasPrefix(".") else {
      throw WebsiteDataStoreError(
        .invalidArgument,
        "a store name is 1-64 letters, digits, '.', '_' or '-', not starting with '.'")
    }
  }
}
