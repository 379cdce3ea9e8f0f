import Foundation

/// What kind of key locks a persistent store.
public enum StoreKeyProtection: Sendable, Hashable, CustomStringConvertible {
  /// A key file (``KeySource/keyFile(_:)``).
  case keyFile
  /// A passphrase, through scrypt (``KeySource/passphrase(_:)``).
  case passphrase

  public var description: String {
    switch self {
    case .keyFile: "key file"
    case .passphrase: "passphrase"
    }
  }
}

extension WebsiteDataStore {
  /// How the store at `path` is locked, read without any key (the kind is
  /// not secret): so that a tool can ask for the right one. Nothing is
  /// written, nothing is created.
  ///
  /// - Returns: the protection; `nil` never comes back today (a store's path
  ///   never holds one whose key is not yet written), kept for callers.
  /// - Throws: ``WebsiteDataStoreError`` — `.notFound` (no file),
  ///   `.notAStore` (another program's file), `.corrupt` (damaged), `.io`.
  public static func keyProtection(ofStoreAt path: String) async throws -> StoreKeyProtection? {
    guard FileManager.default.fileExists(atPath: path) else {
      throw WebsiteDataStoreError(.notFound, "no store at \(path)")
    }
    return try await StoreFileCheck.verify(
      path: path, migrator: try PersistentStoreFile.migrator()
    ) {
      $0.scrypt == nil ? StoreKeyProtection.keyFile : .passphrase
    }
  }

  /// The key identifier of the store at `path` (Migrations/0004), read
  /// without any key: a random name that stays with the store when it is
  /// moved or copied, for finding its key (`sitedata` names a store's
  /// default key file after it). Nothing is written.
  ///
  /// - Returns: `nil` for a store of a schema before 0004 (opening it once
  ///   with its key records one).
  /// - Throws: as ``keyProtection(ofStoreAt:)``.
  public static func keyIdentifier(ofStoreAt path: String) async throws -> String? {
    guard FileManager.default.fileExists(atPath: path) else {
      throw WebsiteDataStoreError(.notFound, "no store at \(path)")
    }
    return try await StoreFileCheck.verify(
      path: path, migrator: try PersistentStoreFile.migrator()
    ) { $0.keyIdentifier }
  }
}
