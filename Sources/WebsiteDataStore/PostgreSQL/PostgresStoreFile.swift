import CookieCore

/// A store on a PostgreSQL server as a whole (``StoreFile``): its key
/// record and settings in `store_meta`, re-keying and re-encryption in one
/// transaction, the schema check, and the cookie, HSTS and web storage
/// backends and change listener it closes.
final class PostgresStoreFile: StoreFile {
  let database: PostgresDatabase
  let cookies: PostgresCookieBackend
  let hsts: PostgresHSTSBackend
  let webStorage: PostgresWebStorageBackend
  let httpCache: PostgresReloadedBackend<HTTPCacheRecords>
  let listener: PostgresChangeListener
  private let facts: any DomainFacts

  init(
    database: PostgresDatabase, cookies: PostgresCookieBackend, hsts: PostgresHSTSBackend,
    webStorage: PostgresWebStorageBackend, httpCache: PostgresReloadedBackend<HTTPCacheRecords>,
    listener: PostgresChangeListener,
    facts: any DomainFacts
  ) {
    self.database = database
    self.cookies = cookies
    self.hsts = hsts
    self.webStorage = webStorage
    self.httpCache = httpCache
    self.listener = listener
    self.facts = facts
  }

  func rewrapKey(to newKey: KeySource) async throws {
    await flush()
    let (kek, scrypt) = try newKey.newStoreKey()
    let wrapped = try KeyEnvelope.rewrap(dataKey: cookies.dataKey, newKEK: kek)
    try await PostgresStoreError.mapping {
      try await database.transaction { connection in
        try PostgresAdvisoryLock.meta.take(on: connection)
        try Self.write(StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped), connection)
      }
    }
  }

  /// Every readable cookie, HSTS entry, web storage item and setting sealed
  /// again under a new data key, with the new key record, in one
  /// transaction that holds every change sequence (no other client writes meanwhile). Other clients
  /// still holding the old key read the new rows as damaged until they
  /// open the store again, with the new key.
  func reencrypt(to newKey: KeySource) async throws {
    await flush()
    let (kek, scrypt) = try newKey.newStoreKey()
    let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
    let newCodec = LockedCodec(SealedRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
    let oldCodec = cookies.codec
    let facts = facts
    let sender = cookies.sender
    try await PostgresStoreError.mapping {
      try await database.withConnection { connection in
        let replacement = try SealedRowCodec(keys: newCodec.withLock { $0.keys })
        try newCodec.withLock { newCodec in
          try connection.transaction {
            let sequence = try PostgresChangeSequence.next(.cookies, on: connection)
            _ = try PostgresChangeSequence.next(.hsts, on: connection)
            _ = try PostgresChangeSequence.next(.webStorage, on: connection)
            _ = try PostgresChangeSequence.next(.httpCache, on: connection)
            try PostgresAdvisoryLock.meta.take(on: connection)
            let snapshot = try PostgresCookieRows.readAll(connection)
            var readable: [Cookie] = []
            try oldCodec.withLock { old in
              snapshot.sealed.withUnsafeBytes { sealed in
                for row in snapshot.rows {
                  if let cookie = try? old.cookie(row, sealed: sealed, seal: .allColumns) {
                    readable.append(cookie)
                  }
                }
              }
              try connection.execute(
                "DELETE FROM cookies WHERE id = ANY($1::int8[])",
                [.array(snapshot.rows.map { .int64($0.id) }, element: .int64)])
              try HSTSRecords.reseal(connection, from: old, to: newCodec) {
                CookieDomain.siteKey(of: $0, facts: facts)
              }
              try WebStorageRecords.reseal(connection, from: old, to: newCodec)
              try HTTPCacheRecords.reseal(connection, from: old, to: newCodec)
              for name in try Self.settingNames(connection) {
                let value = try Self.setting(name, connection, codec: old)
                try Self.saveSetting(value, named: name, connection, codec: newCodec)
              }
            }
            // Damaged rows, which no key opens, were not deleted: kept as they are.
            let rows = try PostgresCookieRows(
              CookieWrite(
                changes: readable.map { CookieChange(cookie: $0, cause: .inserted) }, erasing: true),
              codec: newCodec, keepsSessionCookies: true)
            try rows.apply(to: connection, sequence: sequence)
            try Self.write(StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped), connection)
            try PostgresChangeSequence.announce(.cookies, sender: sender, on: connection)
            try PostgresChangeSequence.announce(.hsts, sender: sender, on: connection)
            try PostgresChangeSequence.announce(.webStorage, sender: sender, on: connection)
          }
        }
        oldCodec.replace(with: replacement)
      }
    }
  }

  func setting(named name: String) async throws -> [UInt8]? {
    let codec = cookies.codec
    return try await PostgresStoreError.mapping {
      try await database.withConnection { connection in
        try codec.withLock { try Self.setting(name, connection, codec: $0) }
      }
    }
  }

  func saveSetting(_ value: [UInt8]?, named name: String) async throws {
    try await updateSetting(named: name) { _ in value }
  }

  func updateSetting(named name: String, _ transform: @escaping @Sendable ([UInt8]?) -> [UInt8]?)
    async throws
  {
    let codec = cookies.codec
    try await PostgresStoreError.mapping {
      try await database.transaction { connection in
        try PostgresAdvisoryLock.meta.take(on: connection)
        try codec.withLock { codec in
          let current = try Self.setting(name, connection, codec: codec)
          try Self.saveSetting(transform(current), named: name, connection, codec: codec)
        }
      }
    }
  }

  /// The schema check (``PostgresStoreSchema/problems(_:)``): unexpected
  /// tables, columns, views, triggers or rules, and a ledger that is not
  /// this version's.
  func integrityCheck() async throws -> [String] {
    try await PostgresStoreError.mapping {
      try await database.withConnection { try PostgresStoreSchema.problems($0) }
    }
  }

  func flush() async {
    await cookies.drain()
    await hsts.drain()
    await webStorage.drain()
    await httpCache.drain()
  }

  func close() async {
    await flush()
    await listener.stop()
    await database.close()
    await cookies.reader.close()
  }

  // MARK: - store_meta

  /// The `store_meta` entries.
  static func meta(_ connection: PostgresConnection) throws -> [String: [UInt8]] {
    var meta: [String: [UInt8]] = [:]
    for row in try connection.execute("SELECT key, value FROM store_meta").rows {
      if let key = row[0].text { meta[key] = row[1].bytes ?? [] }
    }
    return meta
  }

  /// Writes `record`'s entries (inside the caller's transaction).
  static func write(_ record: StoreKeyRecord, _ connection: PostgresConnection) throws {
    for (key, value) in record.metaEntries {
      try setMeta(key, value, connection)
    }
  }

  private static func setMeta(_ key: String, _ value: [UInt8]?, _ connection: PostgresConnection)
    throws
  {
    if let value {
      try connection.execute(
        "INSERT INTO store_meta (key, value) VALUES ($1, $2)"
          + " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [.text(key), .bytes(value)])
    } else {
      try connection.execute("DELETE FROM store_meta WHERE key = $1", [.text(key)])
    }
  }

  private static func setting(
    _ name: String, _ connection: PostgresConnection, codec: SealedRowCodec
  )
    throws -> [UInt8]?
  {
    let rows = try connection.execute(
      "SELECT value FROM store_meta WHERE key = $1", [.text(StoreSettingSeal.metaKey(name))])
    guard let sealed = rows.scalar?.bytes else { return nil }
    return StoreSettingSeal.open(sealed, named: name, codec: codec)
  }

  private static func saveSetting(
    _ value: [UInt8]?, named name: String, _ connection: PostgresConnection, codec: SealedRowCodec
  ) throws {
    try setMeta(
      StoreSettingSeal.metaKey(name),
      try value.map { try StoreSettingSeal.seal($0, named: name, codec: codec) }, connection)
  }

  private static func settingNames(_ connection: PostgresConnection) throws -> [String] {
    let prefix = StoreSettingSeal.metaKey("")
    return try meta(connection).keys.filter { $0.hasPrefix(prefix) }.map {
      String($0.dropFirst(prefix.count))
    }
  }
}
