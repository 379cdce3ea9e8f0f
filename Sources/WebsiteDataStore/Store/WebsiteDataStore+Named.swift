import CookieCore
import Foundation

extension WebsiteDataStore {
  /// The folder named stores live in: `$XDG_DATA_HOME/sitedata`, or
  /// `~/.local/share/sitedata` when `XDG_DATA_HOME` is unset or relative
  /// (XDG Base Directory Specification).
  public static var defaultRoot: String {
    let environment = ProcessInfo.processInfo.environment
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/sitedata"
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/share/sitedata"
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
    clock: any CookieClock = SystemCookieClock(),
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
