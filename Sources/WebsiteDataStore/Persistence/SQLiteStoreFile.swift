import CookieCore

/// The SQLite file of a persistent store (``StoreFile``): one database, with
/// its cookie, HSTS and web storage backends, which share the file's codec.
final class SQLiteStoreFile: StoreFile {
  let database: SQLiteDatabase
  let cookies: SQLiteCookieBackend
  let hsts: SQLiteHSTSBackend
  let webStorage: SQLiteWebStorageBackend
  let httpCache: SQLiteReloadedBackend<HTTPCacheRecords>
  /// For the site hashes of re-sealed HSTS rows.
  private let facts: any DomainFacts

  init(
    database: SQLiteDatabase, cookies: SQLiteCookieBackend, hsts: SQLiteHSTSBackend,
    webStorage: SQLiteWebStorageBackend, httpCache: SQLiteReloadedBackend<HTTPCacheRecords>,
    facts: any DomainFacts
  ) {
    self.database = database
    self.cookies = cookies
    self.hsts = hsts
    self.webStorage = webStorage
    self.httpCache = httpCache
    self.facts = facts
  }

  func rewrapKey(to newKey: KeySource) async throws {
    await flush()
    try await PersistentStoreFile.rewrap(
      database: database, dataKey: cookies.dataKey, newKey: newKey)
  }

  func reencrypt(to newKey: KeySource) async throws {
    await hsts.drain()
    await webStorage.drain()
    await httpCache.drain()
    let facts = facts
    try await cookies.reencrypt(newKey: newKey) { connection, old, new in
      try HSTSRecords.reseal(connection, from: old, to: new) {
        CookieDomain.siteKey(of: $0, facts: facts)
      }
      try WebStorageRecords.reseal(connection, from: old, to: new)
      try HTTPCacheRecords.reseal(connection, from: old, to: new)
      try SQLiteStoreSettings.reseal(connection, from: old, to: new)
    }
  }

  /// `store_meta`'s `setting:<name>` (``SQLiteStoreSettings``).
  func setting(named name: String) async throws -> [UInt8]? {
    let codec = cookies.codec
    return try await database.read { connection in
      try codec.withLock { try SQLiteStoreSettings.read(name, connection, codec: $0) }
    }
  }

  func saveSetting(_ value: [UInt8]?, named name: String) async throws {
    let codec = cookies.codec
    try await database.write { connection in
      try codec.withLock {
        try SQLiteStoreSettings.write(value, named: name, connection, codec: $0)
      }
    }
  }

  func updateSetting(named name: String, _ transform: @escaping @Sendable ([UInt8]?) -> [UInt8]?)
    async throws
  {
    let codec = cookies.codec
    try await database.write { connection in
      try codec.withLock { codec in
        let current = try SQLiteStoreSettings.read(name, connection, codec: codec)
        try SQLiteStoreSettings.write(transform(current), named: name, connection, codec: codec)
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
    await webStorage.drain()
    await httpCache.drain()
  }

  /// Its last connection checkpoints the WAL into the file.
  func close() async {
    await flush()
    await database.close()
  }
}
