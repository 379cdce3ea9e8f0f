import Synchronization

/// Recognises an existing file as a WebsiteData store before anything writes
/// to it: a file that is not one — a Firefox `cookies.sqlite`, another SQLite
/// database, a zero-length file, a store whose key record was emptied, or a
/// store with schema objects its migrations did not make (a planted trigger,
/// a view, an extra table or column) — is refused, through a read-only
/// connection: its bytes stay as they were (no WAL switch, no table, no key
/// file). A file without our schema ledger is
/// ``WebsiteDataStoreError/Code/notAStore``; one of ours whose key record or
/// schema is not what it should be is ``WebsiteDataStoreError/Code/corrupt``.
/// (A reader of a WAL-mode database opens its `-wal` and `-shm`, as every
/// SQLite reader does, and writes nothing to them.)
///
/// The schema is compared with a reference: the store's applied migrations
/// run on an empty database in memory, and every object of `sqlite_master`
/// (type, name, table and SQL text) must be the same in both.
enum StoreFileCheck {
  /// One object of `sqlite_master`.
  struct SchemaObject: Hashable, Comparable, Sendable {
    var type: String
    var name: String
    var table: String
    var sql: String?

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.type, lhs.name) < (rhs.type, rhs.name) }
  }

  /// Throws unless the file at `path` is a WebsiteData store whose schema is
  /// exactly what `migrator`'s migrations make (`.newerSchema` for a store of
  /// a newer version), then reads its key record and hands it to `body`, on
  /// the database's own thread (a key derivation is slow work).
  static func verify<Result: Sendable>(
    path: String, migrator: Migrator,
    then body: @escaping @Sendable (StoreKeyRecord) throws -> Result
  ) async throws -> Result {
    let database = try await SQLiteDatabase(path: path, mode: .readOnly)
    do {
      let result = try await database.withConnection { connection -> Result in
        try verify(connection, path: path, migrator: migrator)
        guard let record = try StoreKeyRecord.read(connection) else {
          throw WebsiteDataStoreError(.corrupt, "\(path) is damaged: its key record is missing")
        }
        return try body(record)
      }
      await database.close()
      return result
    } catch {
      await database.close()
      throw error
    }
  }

  /// ``verify(path:migrator:)`` on a read-only connection to the file.
  private static func verify(_ connection: SQLiteConnection, path: String, migrator: Migrator)
    throws
  {
    func damaged(_ why: String) -> WebsiteDataStoreError {
      WebsiteDataStoreError(.corrupt, "\(path) is damaged: \(why)")
    }
    let ledger = try migrator.appliedMigrations(connection)
    guard !ledger.isEmpty else {
      throw WebsiteDataStoreError(
        .notAStore,
        "\(path) is not a WebsiteData store (it has no store schema: an empty file, or another"
          + " program's database)")
    }
    if let newest = ledger.last, newest.version > migrator.latestVersion {
      throw WebsiteDataStoreError(
        .newerSchema,
        "\(path) has schema version \(newest.version), newer than the newest this software knows"
          + " (\(migrator.latestVersion)); use a newer version")
    }
    let known = migrator.migrations.prefix(ledger.count)
    guard known.map(\.version) == ledger.map(\.version) else {
      throw damaged("its schema ledger does not match the known migrations")
    }
    let format = try connection.prepare("SELECT value FROM store_meta WHERE key = 'format'")
    defer { format.reset() }
    guard try format.step(), format.blob(at: 0) == StoreKeyRecord.formatValue else {
      throw damaged("its key record is missing")
    }
    let expected = try referenceSchema(known)
    let actual = try schema(of: connection)
    guard actual == expected else {
      let unexpected = actual.subtracting(expected).sorted().map { "\($0.type) \($0.name)" }
      let missing = expected.subtracting(actual).sorted().map { "\($0.type) \($0.name)" }
      var parts: [String] = []
      if !unexpected.isEmpty {
        parts.append("unexpected or altered " + unexpected.joined(separator: ", "))
      }
      if !missing.isEmpty { parts.append("missing " + missing.joined(separator: ", ")) }
      throw damaged("its schema is not the store's (\(parts.joined(separator: "; ")))")
    }
  }

  /// The reference schemas made so far, by the labels of the migrations
  /// applied: the migrations are compiled in, so each schema is made once per
  /// process, not on every open.
  private static let referenceSchemas = Mutex<[[String]: Set<SchemaObject>]>([:])

  /// The schema `migrations` make on an empty database, with the ledger.
  static func referenceSchema(_ migrations: ArraySlice<Migration>) throws -> Set<SchemaObject> {
    let labels = migrations.map(\.label)
    if let known = referenceSchemas.withLock({ $0[labels] }) { return known }
    let schema = try makeReferenceSchema(migrations)
    referenceSchemas.withLock { $0[labels] = schema }
    return schema
  }

  /// ``referenceSchema(_:)``, made in a private database in memory.
  private static func makeReferenceSchema(_ migrations: ArraySlice<Migration>) throws
    -> Set<SchemaObject>
  {
    let memory = try SQLiteConnection(path: ":memory:", mode: .memory)
    defer { memory.close() }
    try memory.execute(Migrator.ledgerSchema)
    for migration in migrations { try memory.execute(migration.sql) }
    return try schema(of: memory)
  }

  /// Every object of `sqlite_master`.
  static func schema(of connection: SQLiteConnection) throws -> Set<SchemaObject> {
    var objects: Set<SchemaObject> = []
    try connection.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master").forEachRow {
      objects.insert(
        SchemaObject(
          type: $0.text(at: 0) ?? "", name: $0.text(at: 1) ?? "", table: $0.text(at: 2) ?? "",
          sql: $0.text(at: 3)))
    }
    return objects
  }
}
