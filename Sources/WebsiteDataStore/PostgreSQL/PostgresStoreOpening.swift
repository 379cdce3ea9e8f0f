import Foundation

/// Opening, or creating, a store in a PostgreSQL schema.
///
/// Order, as for a SQLite file (``PersistentStoreFile``): the schema is
/// recognised (reading only: ``PostgresStoreSchema``), a newer schema is
/// refused, the key is checked, then pending migrations run; a schema that
/// is not a store, a wrong key or a newer schema leaves the database
/// untouched. Creating one migrates an empty schema and writes its key
/// record under an advisory lock, so that clients creating the store at
/// once end with one key: a later one finds the record and unlocks it.
enum PostgresStoreOpening {
  /// Connects to `connectionString`, opens (or creates) the store there and
  /// unlocks its data key.
  ///
  /// - Throws: `.notFound` (an empty schema and `create` is false),
  ///   `.notAStore`, `.corrupt`, `.wrongKey`, `.newerSchema`, `.unavailable`.
  static func open(
    connectionString: String, key: KeySource, create: Bool, newKeyIdentifier: String?, now: Date
  ) async throws -> (PostgresDatabase, SecretBytes) {
    let database = try await PostgresStoreError.mapping {
      try await PostgresDatabase(connectionString)
    }
    do {
      let dataKey = try await PostgresStoreError.mapping {
        try await unlock(
          database, key: key, create: create, newKeyIdentifier: newKeyIdentifier, now: now)
      }
      return (database, dataKey)
    } catch {
      await database.close()
      throw error
    }
  }

  private static func unlock(
    _ database: PostgresDatabase, key: KeySource, create: Bool, newKeyIdentifier: String?,
    now: Date
  ) async throws -> SecretBytes {
    let migrator = try PostgresMigrator()
    let contents = try await database.withConnection { try PostgresStoreSchema.inspect($0) }
    if case .empty = contents {
      guard create else {
        throw WebsiteDataStoreError(.notFound, "no store in the database's schema")
      }
      try await migrator.migrate(database, now: now)
      // The new key is made before the transaction: scrypt is slow.
      let (kek, scrypt) = try key.newStoreKey()
      let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
      let created = try await database.transaction { connection -> Bool in
        try PostgresAdvisoryLock.meta.take(on: connection)
        guard try StoreKeyRecord(meta: PostgresStoreFile.meta(connection)) == nil else {
          return false  // another client created it first
        }
        var record = StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped)
        record.keyIdentifier = newKeyIdentifier ?? PersistentStoreOptions.randomKeyIdentifier()
        try PostgresStoreFile.write(record, connection)
        return true
      }
      if created { return dataKey }
    } else {
      // A newer ledger is refused before the key is even asked for.
      let ledger = try await database.withConnection { try PostgresMigrator.ledger($0) }
      _ = try migrator.migrator.prefixCount(of: ledger)
    }
    let meta = try await database.withConnection { try PostgresStoreFile.meta($0) }
    guard let record = try StoreKeyRecord(meta: meta) else {
      throw WebsiteDataStoreError(.corrupt, "the store's key record is missing")
    }
    let dataKey = try PersistentStoreFile.unlockFinishingRotation(record, key: key)
    try await migrator.migrate(database, now: now)
    return dataKey
  }

  /// `connectionString` without its password (a URI's user-info password
  /// or `password` parameter are dropped, a `password=` pair shown as
  /// `password=…`), to show as the store's location.
  static func redacted(_ connectionString: String) -> String {
    if connectionString.hasPrefix("postgres://") || connectionString.hasPrefix("postgresql://") {
      guard var components = URLComponents(string: connectionString) else {
        return "postgresql://…"
      }
      components.password = nil
      if let items = components.percentEncodedQueryItems,
        items.contains(where: { $0.name == "password" })
      {
        let kept = items.filter { $0.name != "password" }
        components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
      }
      return components.string ?? "postgresql://…"
    }
    return connectionString.split(separator: " ").map {
      $0.hasPrefix("password=") ? "password=…" : String($0)
    }.joined(separator: " ")
  }
}
