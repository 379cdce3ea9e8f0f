import CookieCore

/// The SQLite file of a persistent store (``StoreFile``): one database, with
/// its cookie and HSTS backends, which share the file's codec.
final class SQLiteStoreFile: StoreFile {
  let database: SQLiteDatabase
  let cookies: SQLiteCookieBackend
  let hsts: SQLiteHSTSBackend
  /// For the site hashes of re-sealed HSTS rows.
  private let facts: any DomainFacts

  init(
    database: SQLiteDatabase, cookies: SQLiteCookieBackend, hsts: SQLiteHSTSBackend,
    facts: any DomainFacts
  ) {
    self.database = database
    self.cookies = cookies
    self.hsts = hsts
    self.facts = facts
  }

  func rewrapKey(to newKey: KeySource) async throws {
    await flush()
    try await PersistentStoreFile.rewrap(
      database: database, dataKey: cookies.dataKey, newKey: newKey)
  }

  func reencrypt(to newKey: KeySource) async throws {
    await hsts.drain()
    let facts = facts
    try await cookies.reencrypt(newKey: newKey) { connection, old, new in
      try SQLiteHSTSBackend.reseal(connection, from: old, to: new) {
        CookieDomain.siteKey(of: $0, facts: facts)
      }
    }
  }

  /// SQLite's `PRAGMA integrity_check`.
  func integrityCheck() async throws -> [String] {
    try await database.withConnection { try $0.integrityCheck() }
  }

  func flush() async {
    await cookies.drain()
    await hsts.drain()
  }

  /// Its last connection checkpoints the WAL into the file.
  func close() async {
    await flush()
    await database.close()
  }
}
