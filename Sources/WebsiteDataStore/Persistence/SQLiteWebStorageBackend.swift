import Foundation

/// The encrypted SQLite backend of a persistent store's ``WebStorageStore``:
/// the `web_storage` table (Migrations/0006_web_storage.sql), one row per
/// item, sealed with the cookie rows' codec (``LockedCodec``, shared so
/// that a re-encryption switches every kind at once).
///
/// Writes are queued in the order the store made them (group commit,
/// ``WriteQueue``) and run on the database actor's thread, where the rows
/// are also sealed; each is acknowledged only after it committed, and takes
/// the next number of the file's web storage change sequence
/// (``SQLiteChangeSequence``), so another store notices it. Like the HSTS
/// backend it keeps no removal records: a store that sees others' commits
/// reloads the table (web storage is written far less often than cookies).
final class SQLiteWebStorageBackend: RecordPersistence {
  let database: SQLiteDatabase
  private let codec: LockedCodec
  private let own = OwnCommits()
  private let queue: WriteQueue<WebStorageWrite>

  init(database: SQLiteDatabase, codec: LockedCodec) {
    self.database = database
    self.codec = codec
    let own = own
    queue = WriteQueue { write in
      guard !write.operations.isEmpty else { return }
      try await SQLiteChangeSequence.commit(.webStorage, on: database, own: own) { connection, _ in
        try Self.apply(write.operations, codec: codec, to: connection)
      }
      if write.operations.contains(where: \.deletes) {
        _ = try? await database.withConnection { try $0.checkpoint(.truncate) }
      }
    }
  }

  /// Web storage has no memory-only kind: every item is written.
  var persistsMemoryOnlyRecords: Bool { true }

  func load() async throws -> RecordLoad<WebStorageItem> {
    let codec = codec
    return try await database.read { connection in
      let position = try SQLiteChangeSequence.position(.webStorage, on: connection)
      let rows = try Self.readRows(connection)
      return codec.withLock { $0.webStorageLoad(rows, cursor: position.latest) }
    }
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<WebStorageItem, Never> {
    await drain()
    if let answer: RecordSync<WebStorageItem, Never> = try await SQLiteChangeSequence.glance(
      .webStorage, on: database, from: cursor, own: own)
    {
      return answer
    }
    return .reload(try await load())
  }

  func enqueue(_ write: WebStorageWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }

  private static let upsertSQL =
    "INSERT INTO web_storage (item_hash, area_hash, site_hash, top_level_site_hash, sealed,"
    + " modified) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(item_hash) DO UPDATE SET"
    + " area_hash = excluded.area_hash, site_hash = excluded.site_hash,"
    + " top_level_site_hash = excluded.top_level_site_hash, sealed = excluded.sealed,"
    + " modified = excluded.modified"
  private static let selectSQL =
    "SELECT id, item_hash, area_hash, site_hash, top_level_site_hash, sealed, modified"
    + " FROM web_storage"

  /// Seals, then runs, `operations` in order (inside the caller's
  /// transaction).
  private static func apply(
    _ operations: [WebStorageWrite.Operation], codec: LockedCodec, to connection: SQLiteConnection
  ) throws {
    let statements = try codec.withLock { codec in
      try operations.map { try $0.statement(codec, upsertSQL: upsertSQL) }
    }
    for (sql, values) in statements {
      try connection.run(
        sql,
        values.map { value in
          switch value {
          case .bytes(let bytes): .blob(bytes)
          case .double(let double): .real(double)
          }
        })
    }
  }

  /// Every row of the table, as stored.
  private static func readRows(_ connection: SQLiteConnection) throws -> [WebStorageRow] {
    var rows: [WebStorageRow] = []
    try connection.prepare(selectSQL).forEachRow { row in
      rows.append(
        WebStorageRow(
          id: row.int64(at: 0), itemHash: row.withBlob(at: 1) { RowHash(bytes: $0) } ?? nil,
          areaHash: row.withBlob(at: 2) { RowHash(bytes: $0) } ?? nil,
          siteHash: row.withBlob(at: 3) { RowHash(bytes: $0) } ?? nil,
          topLevelSiteHash: row.withBlob(at: 4) { RowHash(bytes: $0) } ?? nil,
          sealed: row.blob(at: 5), modified: row.double(at: 6)))
    }
    return rows
  }

  /// Re-seals every readable row from `old` keys to `new` ones, in place
  /// (inside the caller's transaction); damaged rows, which no key opens,
  /// are left as they are.
  static func reseal(
    _ connection: SQLiteConnection, from old: SealedRowCodec, to new: SealedRowCodec
  )
    throws
  {
    _ = try SQLiteChangeSequence.next(.webStorage, on: connection)
    let update = try connection.prepare(
      "UPDATE web_storage SET item_hash = ?, area_hash = ?, site_hash = ?,"
        + " top_level_site_hash = ?, sealed = ? WHERE id = ?")
    for row in try readRows(connection) {
      guard let item = try? old.webStorageItem(row) else { continue }
      let sealed = try new.webStorageRow(for: item)
      try update.bind([
        .blob(sealed.itemHash?.bytes ?? []), .blob(sealed.areaHash?.bytes ?? []),
        .blob(sealed.siteHash?.bytes ?? []), .blob(sealed.topLevelSiteHash?.bytes ?? []),
        .blob(sealed.sealed ?? []), .integer(row.id),
      ])
      try update.run()
    }
  }
}
