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
  /// - Returns: `nil` for a store whose key was never written (a new, empty
  ///   store).
  /// - Throws: ``WebsiteDataStoreError`` — `.notFound` (no file),
  ///   `.notAStore` (another program's file), `.corrupt` (damaged), `.io`.
  public static func keyProtection(ofStoreAt path: String) async throws -> StoreKeyProtection? {
    guard FileManager.default.fileExists(atPath: path) else {
      throw WebsiteDataStoreError(.notFound, "no store at \(path)")
    }
    try await StoreFileCheck.verify(path: path, migrator: try PersistentStoreFile.migrator())
    let database = try await SQLiteDatabase(path: path, mode: .readOnly)
    do {
      let record = try await database.withConnection { try StoreKeyRecord.read($0) }
      await database.close()
      guard let record else { return nil }
      return record.scrypt == nil ? .keyFile : .passphrase
    } catch {
      await database.close()
      throw error
    }
  }
}
